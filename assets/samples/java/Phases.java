package demo;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Four phases, one after the other, each in a thread of its own whose name says which layer of
 * a vertical profile (`androprof vertical`) it keeps busy:
 *
 * <ul>
 *   <li>phase-app: a pure-Java arithmetic loop (the application's own code);
 *   <li>phase-library: java.util sorting of Integer objects, Collections.sort (Java library code);
 *   <li>phase-native: a JNI call into a small C library, a loop in C (native code);
 *   <li>phase-kernel: many small write, read and lseek system calls on a temporary file through
 *       a small direct buffer (the kernel).
 * </ul>
 *
 * <pre>
 *   java -Dphases.native=/abs/path/libphases_native.so -cp DIR demo.Phases [SCALE=1] [PHASE,...]
 * </pre>
 *
 * Each phase does a fixed amount of work, about a second on the project's virtual machine at
 * SCALE 1; PHASE,... picks some of app, library, native, kernel (default all, in that order).
 * The C library is jvm/agent/phases_native.c, loaded from the absolute path in the property
 * phases.native; without it the native phase is skipped (and says so). Each phase prints its
 * name, its time and a checksum, which keeps the work from being optimised away.
 */
public final class Phases {
    static native long nativeWork(long n, long seed);

    public static void main(String[] args) throws Exception {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1;
        String[] phases = (args.length > 1 ? args[1] : "app,library,native,kernel").split(",");
        for (String p : phases) {
            Runnable work;
            switch (p) {
                case "app":
                    work = () -> report(p, appLoop((int) (400_000_000 * scale)));
                    break;
                case "library":
                    work = () -> report(p, sortLoop((int) Math.max(1, 500 * scale)));
                    break;
                case "native":
                    String lib = System.getProperty("phases.native");
                    if (lib == null) {
                        System.err.println("demo.Phases: no -Dphases.native=PATH: the native phase is skipped");
                        continue;
                    }
                    System.load(lib);
                    work = () -> report(p, nativeLoop((long) (500_000_000 * scale)));
                    break;
                case "kernel":
                    work = () -> report(p, ioLoop((int) (350_000 * scale)));
                    break;
                default:
                    throw new IllegalArgumentException("unknown phase " + p + ": want app, library, native or kernel");
            }
            Thread t = new Thread(work, "phase-" + p);
            Throwable[] failed = new Throwable[1];
            t.setUncaughtExceptionHandler((th, e) -> failed[0] = e);
            t.start();
            t.join();
            if (failed[0] != null) {
                throw new RuntimeException("phase " + p + " failed", failed[0]);
            }
        }
    }

    private static long start;

    private static void report(String phase, long checksum) {
        System.out.printf("phase-%s %.2f s checksum %d%n", phase, (System.nanoTime() - start) / 1e9, checksum);
    }

    private static void begin() {
        start = System.nanoTime();
    }

    /** The application's own arithmetic: an integer hash over n rounds, no calls, no allocation. */
    static long appLoop(int n) {
        begin();
        long h = 0xcbf29ce484222325L;
        int x = 1;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            h = (h ^ x) * 0x100000001b3L;
        }
        return h;
    }

    /**
     * Library code: rounds times, a shuffled list of 10,000 Integers copied and sorted by
     * Collections.sort. Many small sorts get the sort's methods compiled early, and an ArrayList
     * keeps its elements in an Object[], whose stores HotSpot never has to recheck (an Integer[]
     * keeps ComparableTimSort deoptimising, back into the interpreter, for seconds).
     */
    static long sortLoop(int rounds) {
        Random r = new Random(14);
        List<Integer> orig = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            orig.add(r.nextInt());
        }
        begin();
        long sum = 0;
        for (int k = 0; k < rounds; k++) {
            List<Integer> a = new ArrayList<>(orig);
            Collections.sort(a);
            sum += a.get(k % a.size());
        }
        return sum;
    }

    /** Native code: n rounds of the C library's loop, in calls of a million rounds each. */
    static long nativeLoop(long n) {
        begin();
        long h = 0;
        for (long done = 0; done < n; done += 1_000_000) {
            h ^= nativeWork(Math.min(1_000_000, n - done), done + 1);
        }
        return h;
    }

    /** The kernel: n rounds of lseek, write, lseek, read of 64 bytes on a temporary file. */
    static long ioLoop(int n) {
        try {
            File f = File.createTempFile("androprof-phases-", ".bin");
            f.deleteOnExit();
            long sum = 0;
            try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.allocateDirect(64);
                begin();
                for (int i = 0; i < n; i++) {
                    long pos = (i & 1023) * 64L;
                    buf.clear();
                    buf.putInt(0, i);
                    ch.position(pos);
                    ch.write(buf);
                    buf.clear();
                    ch.position(pos);
                    ch.read(buf);
                    sum += buf.getInt(0);
                }
            } finally {
                f.delete();
            }
            return sum;
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
