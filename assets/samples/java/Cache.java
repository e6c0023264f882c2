package demo;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A growing cache: each step inserts a batch of entries (the live heap climbs), then serves
 * lookups that allocate only short-lived keys (the live heap stays flat), so live bytes rise
 * in stairs. Past its capacity the cache evicts its least recently used entries.
 *
 *   java -cp DIR demo.Cache [steps=10] [perStep=20000] [capacity=150000] [dump.hprof]
 *
 * With a fourth argument it writes a heap dump (HotSpot's HPROF) of the live objects at the end:
 * the demo data set's heap dump is this program's.
 */
public final class Cache {
    static final class Blob {
        final String key;
        final byte[] payload;
        int hits;

        Blob(String key, int size) {
            this.key = key;
            this.payload = new byte[size];
        }
    }

    // The cache lives as long as the program, so it is still reachable at exit.
    static Map<String, Blob> cache;

    public static void main(String[] args) throws java.io.IOException {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int perStep = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int capacity = args.length > 2 ? Integer.parseInt(args[2]) : 150_000;
        cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Blob> eldest) {
                return size() > capacity;
            }
        };
        long hits = 0, misses = 0;
        int next = 0;
        for (int step = 0; step < steps; step++) {
            for (int i = 0; i < perStep; i++, next++) {
                String key = "key-" + next;
                cache.put(key, new Blob(key, 32 + next % 96));
            }
            for (int i = 0; i < 2 * perStep; i++) {
                Blob e = cache.get("key-" + ((i * 7919L) % next));
                if (e != null) {
                    e.hits++;
                    hits++;
                } else {
                    misses++;
                }
            }
        }
        if (args.length > 3) {
            java.lang.management.ManagementFactory
                    .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .dumpHeap(args[3], true);
        }
        System.out.println("cache: " + steps + " steps of " + perStep + " entries, " + cache.size()
                + " cached, " + hits + " hits, " + misses + " misses");
    }
}
