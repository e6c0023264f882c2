package demo;

/**
 * Many threads: N worker threads in the thread group "demo workers", named worker-0 ..
 * worker-(N-1), each allocating exactly K objects of class demo.Threads$Node and K arrays
 * long[L] and keeping them until it ends; main joins them all.
 *
 *   java -cp DIR demo.Threads [N=8] [K=5000] [L=4]
 *
 * Besides these, each worker allocates one Node[K] and one long[K][]: the heap agent's log
 * must show K Nodes and K [J arrays per worker thread. A failing worker fails the program.
 */
public final class Threads {
    static final class Node {
        final long[] data;
        final Node next;

        Node(long[] data, Node next) {
            this.data = data;
            this.next = next;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int l = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        ThreadGroup group = new ThreadGroup("demo workers");
        Thread[] workers = new Thread[n];
        long[] sums = new long[n];
        boolean[] failed = new boolean[1];
        for (int w = 0; w < n; w++) {
            final int id = w;
            workers[w] = new Thread(group, () -> sums[id] = work(id, k, l), "worker-" + w);
            workers[w].setUncaughtExceptionHandler((t, e) -> {
                System.err.println(t.getName() + " failed: " + e);
                synchronized (failed) {
                    failed[0] = true;
                }
            });
        }
        for (Thread t : workers) {
            t.start();
        }
        for (Thread t : workers) {
            t.join();
        }
        synchronized (failed) {
            if (failed[0]) {
                System.exit(1);
            }
        }
        long total = 0;
        for (long s : sums) {
            total += s;
        }
        System.out.println("threads " + n + ": each allocated " + k + " demo.Threads$Node and " + k
                + " long[" + l + "] (checksum " + total + ")");
    }

    // work allocates the worker's objects: they stay reachable until it returns.
    static long work(int id, int k, int l) {
        Node[] nodes = new Node[k];
        long[][] arrays = new long[k][];
        Node prev = null;
        for (int i = 0; i < k; i++) {
            long[] data = new long[l];
            data[0] = (long) id * k + i;
            arrays[i] = data;
            prev = new Node(data, i % 2 == 0 ? prev : nodes[i / 2]);
            nodes[i] = prev;
        }
        long sum = 0;
        for (Node nd : nodes) {
            sum += nd.data[0];
        }
        return sum + arrays.length;
    }
}
