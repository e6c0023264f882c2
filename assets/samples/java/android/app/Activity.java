package android.app;

/**
 * The two fields of Android's {@code android.app.Activity} that leak rules read, for
 * {@code demo.Leaks}: {@code mFinished} is set by {@code finish()}, {@code mDestroyed} once
 * {@code onDestroy()} has run. After that nothing should keep the Activity alive.
 */
public class Activity {
    boolean mFinished;
    boolean mDestroyed;

    /** Android's finish() then the framework's performDestroy(), in one step. */
    public final void finishAndDestroy() {
        mFinished = true;
        onDestroy();
        mDestroyed = true;
    }

    protected void onDestroy() {}
}
