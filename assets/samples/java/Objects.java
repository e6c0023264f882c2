package demo;

import java.nio.charset.StandardCharsets;

/**
 * A heap whose objects' field values are known, for the object view ({@code report --object}):
 * a static field, {@code Objects.values}, holds one {@code demo.Objects$Values} with an int, a
 * negative int, a long, a boolean, a double, a String, a char[], a byte[] and an int[] of known
 * contents; another, {@code Objects.cycle}, holds node a of a reference cycle a → b → a
 * through the field {@code x}:
 *
 * <pre>
 *   class demo.Objects --values--> demo.Objects$Values
 *   class demo.Objects --cycle--> demo.Objects$Node "a" --x--> demo.Objects$Node "b" --x--> a
 * </pre>
 *
 * <pre>
 *   java -cp DIR demo.Objects [dump.hprof]
 * </pre>
 *
 * With a file name it writes a heap dump of the live objects (HotSpot's HPROF); without, it only
 * builds them (as the other samples, it runs with no arguments at all).
 */
public final class Objects {
    static Values values;
    static Node cycle;

    /** One field of each kind the object view prints. */
    static final class Values {
        int count = 42;
        int negative = -7;
        long big = 1234567890123L;
        boolean flag = true;
        double ratio = 2.5;
        String label = "hello, heap";
        char[] letters = {'a', 'b', 'c'};
        byte[] bytes = "bytes!".getBytes(StandardCharsets.US_ASCII);
        int[] numbers = {1, 2, 3, 5, 8};
    }

    /** A node of the cycle: its name, and the next node. */
    static final class Node {
        final String name;
        Node x;

        Node(String name) {
            this.name = name;
        }
    }

    public static void main(String[] args) throws Exception {
        build();
        if (args.length > 0) {
            java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .dumpHeap(args[0], true);
        }
        System.out.println("objects " + values.count + " " + cycle.x.name);
    }

    /** Builds the objects in a frame of its own, so no local variable of main holds them. */
    static void build() {
        values = new Values();
        Node a = new Node("a");
        Node b = new Node("b");
        a.x = b;
        b.x = a;
        cycle = a;
    }
}
