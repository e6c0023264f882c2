package demo;

import android.app.Activity;
import java.util.ArrayList;
import java.util.List;

/**
 * Android's most common leak, in plain Java, for the leak rules (docs/heap-leaks.md): an
 * Activity registers itself as a listener in a static list and never unregisters, so once it
 * is destroyed (its {@code mDestroyed} true) the list still keeps it, and all it holds, alive:
 *
 * <pre>
 *   class demo.Leaks --listeners--> java.util.ArrayList --elementData--> Object[] --[0]-->
 *   demo.Leaks$MainActivity (mDestroyed true)
 * </pre>
 *
 * The Activity on screen ({@code Leaks.current}, mDestroyed false) is alive as it should be,
 * and no rule may report it. With a file name it writes a heap dump (HotSpot's HPROF) after
 * the first rotation; with two, it rotates twice more (two more leaked Activities) and writes
 * the second.
 *
 * <pre>
 *   java -cp DIR demo.Leaks [first.hprof [second.hprof]]
 * </pre>
 */
public final class Leaks {
    static final List<Object> listeners = new ArrayList<>();
    static MainActivity current;

    /** The app's screen: what it shows is 64 KB that leaks with it. */
    static final class MainActivity extends Activity {
        final byte[] views = new byte[64 * 1024];

        MainActivity() {
            listeners.add(this); // never removed: the bug
        }
    }

    /** A screen rotation: the Activity shown is destroyed and a new one made. */
    static void rotate() {
        if (current != null) {
            current.finishAndDestroy();
        }
        current = new MainActivity();
    }

    public static void main(String[] args) throws Exception {
        rotate();
        rotate();
        if (args.length > 0) {
            dump(args[0]);
        }
        rotate();
        rotate();
        if (args.length > 1) {
            dump(args[1]);
        }
        System.out.println("listeners " + listeners.size());
    }

    static void dump(String path) throws Exception {
        java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .dumpHeap(path, true);
    }
}
