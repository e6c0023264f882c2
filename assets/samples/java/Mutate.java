package demo;

/**
 * Reference stores whose direction is known, for seed figure 5.22 (pointer-mutation distances,
 * recorded by {@code androprof heap --mutations}). It allocates N nodes of class
 * demo.Mutate$Node into a Node[N] allocated before them, then links them:
 *
 * <pre>
 *   nodes[i] = node i      positive: the array is older than its elements
 *   node i.next = node i+1 positive: the source is older than the target
 *   node i.prev = node i-1 negative: the source is younger
 *   node i.self = node i   negative: a field points back at its own object's start
 *   later[i] = node i      negative: a Node[N] allocated after the nodes
 *   node i.prev = null     null, for every other node
 *
 *   java -cp DIR demo.Mutate [N=10000]
 * </pre>
 *
 * It prints its own count of each kind: the log's "m" records whose source is a Node or a
 * Node[] must agree. Every node stays reachable from the arrays until the program ends.
 */
public final class Mutate {
    static final class Node {
        Node next;
        Node prev;
        Node self;
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        long positive = 0, negative = 0, nulls = 0;
        Node[] nodes = new Node[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new Node();
            positive++;
        }
        for (int i = 0; i + 1 < n; i++) {
            nodes[i].next = nodes[i + 1];
            positive++;
        }
        for (int i = 1; i < n; i++) {
            nodes[i].prev = nodes[i - 1];
            negative++;
        }
        for (Node node : nodes) {
            node.self = node;
            negative++;
        }
        Node[] later = new Node[n];
        for (int i = 0; i < n; i++) {
            later[i] = nodes[i];
            negative++;
        }
        for (int i = 0; i < n; i += 2) {
            nodes[i].prev = null;
            nulls++;
        }
        long linked = 0;
        for (Node node = later[0]; node != null; node = node.next) {
            linked++;
        }
        System.out.println("mutations: " + positive + " positive, " + negative + " negative, " + nulls + " null ("
                + linked + " nodes linked)");
    }
}
