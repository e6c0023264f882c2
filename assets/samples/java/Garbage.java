package demo;

import java.util.ArrayList;
import java.util.List;

/**
 * Short-lived garbage: each round allocates a small Item, its label String and an int[] that
 * die young (a 64-slot ring keeps them briefly); every 10000th Item is kept for the whole run.
 *
 *   java -cp DIR demo.Garbage [rounds=1000000]
 */
public final class Garbage {
    static final class Item {
        final int id;
        final String label;
        final int[] values;

        Item(int id, String label, int[] values) {
            this.id = id;
            this.label = label;
            this.values = values;
        }
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Item[] ring = new Item[64];
        List<Item> kept = new ArrayList<>();
        long sum = 0;
        for (int i = 0; i < rounds; i++) {
            int[] values = new int[1 + i % 16];
            values[0] = i;
            Item item = new Item(i, "item-" + i, values);
            ring[i & 63] = item;
            if (i % 10_000 == 0) {
                kept.add(item);
            }
            sum += ring[(i >> 1) & 63].values[0] + ring[(i >> 2) & 63].label.length();
        }
        System.out.println("garbage: " + rounds + " rounds, kept " + kept.size() + " items (checksum " + sum + ")");
    }
}
