package demo;

import java.util.HashMap;
import java.util.Map;

/**
 * A heap whose structure is known, for the questions every heap tool answers ("what keeps this
 * alive?", "what grew?"): a static map, {@code Retain.registry}, holds N objects of class
 * {@code demo.Retain$Item}, each through the same chain of fields:
 *
 * <pre>
 *   class demo.Retain --registry--> java.util.HashMap --table--> HashMap$Node[] --[i]-->
 *   HashMap$Node --value--> demo.Retain$Item
 * </pre>
 *
 * It writes a heap dump of the live objects (HotSpot's HPROF), adds M more items, and writes a
 * second: their difference is exactly M more Items (and their Nodes).
 *
 * <pre>
 *   java -cp DIR demo.Retain [N=100000] [M=0] [before.hprof after.hprof]
 * </pre>
 *
 * Without the file names it only builds the map (as the other samples, it runs with no
 * arguments at all).
 */
public final class Retain {
    static final Map<Integer, Item> registry = new HashMap<>();

    /** An entry of the registry: 16 bytes of payload, nothing it refers to. */
    static final class Item {
        final long id;
        final long weight;

        Item(long id) {
            this.id = id;
            this.weight = id * 31;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int m = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        add(0, n);
        if (args.length > 2) {
            dump(args[2]);
        }
        add(n, n + m);
        if (args.length > 3) {
            dump(args[3]);
        }
        System.out.println("items " + registry.size());
    }

    static void add(int from, int to) {
        for (int i = from; i < to; i++) {
            registry.put(i, new Item(i));
        }
    }

    static void dump(String path) throws Exception {
        java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .dumpHeap(path, true);
    }
}
