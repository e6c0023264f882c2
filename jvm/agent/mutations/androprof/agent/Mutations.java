package androprof.agent;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import sun.misc.Unsafe;

/**
 * What instrumented code calls at each reference store: it finds the byte offset of the slot
 * stored into and hands both ends to the heap agent, which logs an "m" record. The agent jar is
 * on the boot class path, so classes of every loader see this one class.
 */
public final class Mutations {
    private Mutations() {}

    /**
     * src's slot at byte offset now holds dst (null: null); src null is a static field, which
     * the agent only counts. The heap agent implements it (heaplog_agent.c): HotSpot looks for
     * native methods in the JVMTI agents' libraries too.
     */
    static native void store(Object src, Object dst, long offset);

    private static final Unsafe UNSAFE = unsafe();
    private static final long BASE = UNSAFE.arrayBaseOffset(Object[].class);
    private static final long SCALE = UNSAFE.arrayIndexScale(Object[].class);

    private static Unsafe unsafe() {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // The fields that putfield instructions name, by the id Transformer gave each. An offset of
    // 0 is not known yet (no instance field starts at 0: the object header is there); -1 is
    // one Unsafe does not tell (JDK 17 refuses a record's fields), whose stores are logged at
    // offset 0, the object's start. Ids are handed out and offsets written under lock; the
    // hot path reads offsets without it, and a reader that sees a stale 0 resolves again.
    private static final Object lock = new Object();
    private static String[] owners = new String[1024], names = new String[1024];
    private static int count;
    private static volatile int[] offsets = new int[1024];

    /** field gives a field an id at transform time: owner is its class as putfield names it. */
    static int field(String owner, String name) {
        synchronized (lock) {
            if (count == owners.length) {
                owners = Arrays.copyOf(owners, 2 * count);
                names = Arrays.copyOf(names, 2 * count);
                offsets = Arrays.copyOf(offsets, 2 * count);
            }
            owners[count] = owner;
            names[count] = name;
            return count++;
        }
    }

    /** putField records obj.f = value just before the putfield does it; id names f. */
    public static void putField(Object obj, Object value, int id) {
        if (obj == null) {
            return; // the putfield throws NullPointerException: nothing is stored
        }
        int[] known = offsets;
        int off = id < known.length ? known[id] : 0;
        if (off == 0) {
            off = resolve(obj.getClass(), id);
        }
        store(obj, value, Math.max(off, 0));
    }

    /** arrayStore is an aastore: a[i] = v, failing as aastore fails, then recorded. */
    public static void arrayStore(Object[] a, int i, Object v) {
        a[i] = v;
        store(a, v, BASE + i * SCALE);
    }

    /** putStatic records a store into a static field, for the agent to count. */
    public static void putStatic(Object value) {
        store(null, value, 0);
    }

    // resolve finds field id's offset by reflection, outside the lock: reflection can load
    // classes, and a transformer of another thread may hold a class's loading lock while it
    // waits for ours.
    private static int resolve(Class<?> c, int id) {
        String owner, name;
        synchronized (lock) {
            owner = owners[id];
            name = names[id];
        }
        int off = -1;
        try {
            Field f = declared(c, owner, name);
            if (f != null) {
                off = (int) UNSAFE.objectFieldOffset(f);
            }
        } catch (RuntimeException | LinkageError e) {
            // a record's or hidden class's field, or one reflection cannot see: offset 0
        }
        synchronized (lock) {
            offsets[id] = off;
        }
        return off;
    }

    // declared finds the instance field a putfield names: obj's class c is owner or a subclass
    // of it, and the field is declared in owner or a superclass of owner (JVMS 5.4.3.2).
    private static Field declared(Class<?> c, String owner, String name) {
        while (c != null && !c.getName().replace('.', '/').equals(owner)) {
            c = c.getSuperclass();
        }
        for (; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name) && !Modifier.isStatic(f.getModifiers())) {
                    return f;
                }
            }
        }
        return null;
    }
}
