package demo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A heap shaped like a real application's, as big as asked, for the import benchmark of big
 * dumps: users in a HashMap by name, each with its strings, a small attribute map, a list of
 * orders (each with its int[] of quantities and a link to the previous one), an avatar byte[];
 * beside them a TreeMap index, a LinkedList of recent events, Object[] pages and a few large
 * byte[] buffers (images an app keeps).
 *
 * <pre>
 *   java -cp DIR demo.AppHeap [USERS=2000] [wait]
 * </pre>
 *
 * With "wait" it prints "ready" once the heap is built and keeps it until its input closes or
 * gives a line, so that {@code jcmd PID GC.heap_dump} can dump it. Without arguments it builds
 * a small heap and ends.
 */
public final class AppHeap {
    static final Map<String, User> users = new HashMap<>();
    static final TreeMap<Long, User> byId = new TreeMap<>();
    static final LinkedList<Event> recent = new LinkedList<>();
    static final List<Object[]> pages = new ArrayList<>();
    static final List<byte[]> images = new ArrayList<>();

    static final class User {
        final long id;
        final String name;
        final String email;
        final int age;
        final Map<String, String> attrs = new HashMap<>();
        final List<Order> orders = new ArrayList<>();
        final byte[] avatar;

        User(long id) {
            this.id = id;
            this.name = "user-" + id;
            this.email = "user" + id + "@example.com";
            this.age = (int) (18 + id % 60);
            this.avatar = new byte[32 + (int) (id % 96)];
        }
    }

    static final class Order {
        final long id;
        final String sku;
        final double price;
        final int[] quantities;
        final Order previous;

        Order(long id, Order previous) {
            this.id = id;
            this.sku = "SKU-" + (id % 5000);
            this.price = (id % 1000) / 10.0;
            this.quantities = new int[1 + (int) (id % 7)];
            this.previous = previous;
        }
    }

    static final class Event {
        final long at;
        final User user;
        final String what;

        Event(long at, User user, String what) {
            this.at = at;
            this.user = user;
            this.what = what;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        build(n);
        System.out.println("users " + users.size());
        if (args.length > 1 && args[1].equals("wait")) {
            System.out.println("ready");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
    }

    static void build(int n) {
        long order = 0;
        Object[] page = new Object[256];
        for (int i = 0; i < n; i++) {
            User u = new User(i);
            users.put(u.name, u);
            byId.put(u.id, u);
            u.attrs.put("locale", i % 3 == 0 ? "en" : "fr");
            u.attrs.put("theme", "theme-" + (i % 5));
            Order prev = null;
            for (int k = 0; k < 2 + i % 5; k++) {
                prev = new Order(order++, prev);
                u.orders.add(prev);
            }
            recent.add(new Event(i, u, "login " + i));
            page[i % page.length] = u.orders.get(0);
            if (i % page.length == page.length - 1) {
                pages.add(page);
                page = new Object[page.length];
            }
            if (i % 1000 == 999) {
                images.add(new byte[64 << 10]);
            }
        }
    }
}
