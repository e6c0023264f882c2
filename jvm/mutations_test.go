package jvm

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"androprof/formats/heaplog"
	"androprof/internal/proc"
	"androprof/model/heap"
)

// requireASM skips a test on a machine without Debian's ASM; CI has it (scripts/deps.sh).
func requireASM(t testing.TB) {
	t.Helper()
	for _, jar := range asmJars {
		if !isFile(filepath.Join(asmDir, jar)) {
			t.Skipf("no %s (install libasm-java)", filepath.Join(asmDir, jar))
		}
	}
}

// runMutations runs a program under both agents and returns its log, stdout and stderr.
func runMutations(t *testing.T, jdk *JDK, args ...string) (string, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	log := filepath.Join(t.TempDir(), "heap.log")
	err := Run(context.Background(), RunOptions{Java: jdk.Java, Args: args, Log: log, Mutations: true,
		CacheDir: testCacheDir, Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	return log, stdout.String(), stderr.String()
}

var summaryRE = regexp.MustCompile(`(?m)^androprof mutations: (\d+) reference stores logged.*\n?`)

// storesLogged is what the heap agent's summary says it logged; it fails the test on any other
// stderr, such as the Java agent's word on a class it could not instrument.
func storesLogged(t *testing.T, stderr string) uint64 {
	t.Helper()
	m := summaryRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary of the mutations on stderr:\n%s", stderr)
	}
	if rest := summaryRE.ReplaceAllString(stderr, ""); rest != "" {
		t.Errorf("unexpected stderr:\n%s", rest)
	}
	n, _ := strconv.ParseUint(m[1], 10, 64)
	return n
}

func TestBuildMutations(t *testing.T) {
	jdk := requireJDK(t)
	requireASM(t)
	dir := t.TempDir()
	jar, err := BuildMutations(dir, jdk.Javac)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(jar)
	if err != nil {
		t.Fatal(err)
	}
	for _, beside := range asmJars {
		if !isFile(filepath.Join(filepath.Dir(jar), beside)) {
			t.Errorf("no %s beside the agent jar", beside)
		}
	}
	// Cached: no javac needed the second time.
	if again, err := BuildMutations(dir, ""); err != nil || again != jar {
		t.Fatalf("second build: %s, %v; want the cached %s", again, err, jar)
	}
	if st2, _ := os.Stat(jar); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("cached agent rebuilt")
	}
	if out, err := exec.Command(jdk.Home+"/bin/jar", "tf", jar).CombinedOutput(); err != nil ||
		!strings.HasPrefix(string(out), "META-INF/MANIFEST.MF\n") || !strings.Contains(string(out), "androprof/agent/Mutations.class") {
		t.Errorf("jar tf: %v\n%s", err, out)
	}

	defer func(d string) { asmDir = d }(asmDir)
	asmDir = t.TempDir()
	var mt *proc.MissingToolError
	if _, err := BuildMutations(dir, jdk.Javac); !errors.As(err, &mt) || mt.Package != "libasm-java" ||
		!strings.Contains(err.Error(), "apt-get install libasm-java") {
		t.Errorf("ASM missing: %v", err)
	}
}

// The definition of done of figure 5.22: demo.Mutate's stores are in the log, each end named,
// and the signs of their distances are the ones the program counted.
func TestMutationsLog(t *testing.T) {
	jdk := requireJDK(t)
	requireASM(t)
	log, out, stderr := runMutations(t, jdk, "-cp", compiledSamples(t, jdk), "demo.Mutate", "4000")
	var want [3]int
	if _, err := fmt.Sscanf(out, "mutations: %d positive, %d negative, %d null", &want[0], &want[1], &want[2]); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	logged := storesLogged(t, stderr)

	r, err := heaplog.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Header().Props["mutations"] != "on" {
		t.Errorf("props %v", r.Header().Props)
	}
	type object struct {
		birth, size uint64
		class       string
	}
	classes := map[uint32]string{}
	objects := map[uint64]object{}
	var got [3]int
	var records uint64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e.Kind {
		case heap.HeapClass:
			classes[e.Class] = e.Name
		case heap.HeapAlloc:
			objects[e.Object] = object{e.Time, e.Size, classes[e.Class]}
		case heap.HeapMutation:
			records++
			src, ok := objects[e.Object]
			if !ok {
				t.Fatalf("line %d: a store into object %d, never allocated", r.Line(), e.Object)
			}
			if src.class != "demo/Mutate$Node" && src.class != "[Ldemo/Mutate$Node;" {
				continue
			}
			if e.Offset == 0 || uint64(e.Offset) >= src.size {
				t.Errorf("line %d: offset %d into a %s of %d bytes", r.Line(), e.Offset, src.class, src.size)
			}
			if e.Target == 0 {
				got[2]++
				continue
			}
			dst, ok := objects[e.Target]
			if !ok {
				t.Fatalf("line %d: a store of object %d, never allocated", r.Line(), e.Target)
			}
			if heap.MutationDistance(src.birth, e.Offset, dst.birth) > 0 {
				got[0]++
			} else {
				got[1]++
			}
		}
	}
	if got != want {
		t.Errorf("the log's stores from Nodes: %d positive, %d negative, %d null; the program made %v", got[0], got[1], got[2], want)
	}
	if records != logged {
		t.Errorf("%d m records, the agent says it logged %d", records, logged)
	}
	t.Logf("%d stores logged; %v from Nodes", logged, got)
}

// Programs whose classes javac compiles in ways the instrumentation must get right print the
// same under it as without it: lambdas, inner classes storing this$0 before super(), records,
// stores of a ternary's value (a branch target right before the putfield), aastore into a
// String[] and the exceptions a store throws, and a class file of Java 5 without stack maps.
func TestMutationsKeepBehaviour(t *testing.T) {
	jdk := requireJDK(t)
	requireASM(t)
	dir := writeJava(t, jdk, "Odd", oddJava)
	old := filepath.Join(dir, "Old.class")
	downgrade := filepath.Join(dir, "Downgrade.java")
	if err := os.WriteFile(downgrade, []byte(downgradeJava), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(jdk.Java, "-cp", filepath.Join(asmDir, "asm.jar"), downgrade, old).CombinedOutput(); err != nil {
		t.Fatalf("downgrading Old.class: %v\n%s", err, msg)
	}
	if b, err := os.ReadFile(old); err != nil || binary.BigEndian.Uint16(b[6:]) != 49 {
		t.Fatalf("Old.class is not a Java 5 class file: %v", err)
	}

	plain, err := exec.Command(jdk.Java, "-cp", dir, "Odd").CombinedOutput()
	if err != nil {
		t.Fatalf("plain run: %v\n%s", err, plain)
	}
	_, out, stderr := runMutations(t, jdk, "-cp", dir, "Odd")
	if out != string(plain) {
		t.Errorf("under the agents:\n%s\nplain:\n%s", out, plain)
	}
	if n := storesLogged(t, stderr); n < 1000 {
		t.Errorf("%d stores logged, want the program's thousands", n)
	}
}

// A failing program's last words are its own, not the agent's summary that follows them.
func TestMutationsExitStatus(t *testing.T) {
	jdk := requireJDK(t)
	requireASM(t)
	dir := writeJava(t, jdk, "Fail", `public class Fail {
	Object kept;
	public static void main(String[] args) {
		new Fail().kept = new int[1];
		System.err.println("failing on purpose");
		System.exit(3);
	}
}`)
	err := Run(context.Background(), RunOptions{Java: jdk.Java, Args: []string{"-cp", dir, "Fail"}, Mutations: true,
		Log: filepath.Join(t.TempDir(), "fail.log"), CacheDir: testCacheDir})
	var ee *proc.ExitError
	if !errors.As(err, &ee) || ee.ExitCode != 3 || ee.Detail != "failing on purpose" {
		t.Fatalf("error %v, want exit status 3 with the program's last line", err)
	}
}

// A class the transformer fails on runs as it is, and the Java agent names it on stderr: here
// a method that instrumenting would make larger than a class file allows.
func TestMutationsClassLeftAlone(t *testing.T) {
	jdk := requireJDK(t)
	requireASM(t)
	dir := writeJava(t, jdk, "Big", `public class Big {
	Object f;
	public static void main(String[] args) {
		Big a = new Big();
		Object b = "stored";
`+strings.Repeat("\t\ta.f = b;\n", 12000)+`		System.out.println(a.f);
	}
}`)
	_, out, stderr := runMutations(t, jdk, "-cp", dir, "Big")
	if out != "stored\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(stderr, "androprof mutations: Big not instrumented: org.objectweb.asm.MethodTooLargeException") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// oddJava prints what its stores did. Exceptions print their class only: a NullPointerException
// of an aastore names the helper's parameter under the agent, not the caller's local.
const oddJava = `import java.util.*;
import java.util.function.*;

public class Odd {
	static Object shared;
	static String[] names = new String[4];
	Object ref;
	Odd next;

	class Inner { // stores this$0 before super()
		Object seen;
		Inner(Object seen) { this.seen = seen; }
		String show() { return "inner of " + (Odd.this == null ? "none" : "an Odd") + " saw " + seen; }
	}

	static class Base {
		final Object first;
		Base(Object first) { this.first = first; }
	}

	static class Derived extends Base {
		final Object second;
		Derived(boolean flag, Object x) {
			super(flag ? new StringBuilder("built") : x); // a new and a branch before super()
			this.second = flag ? x : first; // a branch target right before the putfield
		}
	}

	record Pair(Object left, Object right) {}

	public static void main(String[] args) throws Exception {
		final List<String> out = new ArrayList<>();
		Odd o = new Odd();
		for (int i = 0; i < 1000; i++) {
			Odd n = new Odd();
			n.next = o;
			o.ref = i % 2 == 0 ? n : null;
			o = n;
		}
		int chain = 0;
		for (Odd p = o; p != null; p = p.next) chain++;
		out.add("chain " + chain);

		Function<Integer, Odd> make = i -> { Odd x = new Odd(); x.ref = "lambda " + i; return x; };
		Supplier<Object> captured = () -> { shared = out; return shared; };
		out.add(make.apply(7).ref + " " + (captured.get() == out));

		Odd outer = new Odd();
		Odd.Inner in = outer.new Inner("hello");
		Runnable anon = new Runnable() { // captures in and out in its constructor
			public void run() { out.add(in.show()); }
		};
		anon.run();

		out.add(new Derived(true, "x").second + " " + new Derived(false, "y").first);
		Pair pr = new Pair("l", List.of(1, 2));
		out.add(pr.toString());

		String[] words = new String[2000];
		for (int i = 0; i < words.length; i++) words[i] = Integer.toString(i);
		names[1] = words[1999];
		out.add(String.join(",", Arrays.copyOf(words, 5)) + " " + names[1]);
		Object[][] grid = new Object[3][3];
		grid[1] = new String[] {"a", "b"};
		grid[2][2] = grid;
		out.add("grid " + grid[1][1] + " " + (grid[2][2] == grid));

		Object[] covariant = new String[1];
		try { covariant[0] = Integer.valueOf(1); } catch (ArrayStoreException e) { out.add("caught " + e.getClass().getName()); }
		try { words[2000] = "x"; } catch (ArrayIndexOutOfBoundsException e) { out.add("caught " + e.getClass().getName()); }
		String[] none = args.length > 99 ? words : null;
		try { none[0] = "x"; } catch (NullPointerException e) { out.add("caught " + e.getClass().getName() + " (array)"); }
		Odd nobody = args.length > 99 ? o : null;
		try { nobody.ref = "x"; } catch (NullPointerException e) { out.add("caught " + e.getMessage()); }

		Thread[] threads = new Thread[4];
		final Odd[] slots = new Odd[4];
		for (int t = 0; t < threads.length; t++) {
			final int k = t;
			threads[t] = new Thread(() -> { for (int i = 0; i < 500; i++) { Odd x = new Odd(); x.ref = slots; slots[k] = x; } });
			threads[t].start();
		}
		for (Thread t : threads) t.join();
		out.add("threads " + (slots[3].ref == slots));

		out.add(Old.run());
		for (String s : out) System.out.println(s);
	}
}

// Old becomes a Java 5 class file (no stack map frames) before the test runs it.
class Old {
	static Object last;
	Object[] items = new Object[10];
	Old link;

	static String run() {
		Old a = new Old();
		for (int i = 0; i < 100; i++) {
			Old b = new Old();
			b.link = i % 3 == 0 ? a : null;
			b.items[i % 10] = a;
			last = b;
			a = b;
		}
		try {
			a.items[10] = a;
		} catch (ArrayIndexOutOfBoundsException e) {
			return new StringBuilder("old ").append(a.link != null).append(last == a).append(" caught").toString();
		}
		return "old: no exception";
	}
}
`

// downgradeJava rewrites a class file as Java 5's, without stack map frames (ASM keeps the
// maximum stack and locals it had). It runs in java's source-file mode.
const downgradeJava = `import java.nio.file.*;
import org.objectweb.asm.*;

public class Downgrade {
	public static void main(String[] args) throws Exception {
		Path p = Paths.get(args[0]);
		ClassReader r = new ClassReader(Files.readAllBytes(p));
		ClassWriter w = new ClassWriter(0);
		r.accept(new ClassVisitor(Opcodes.ASM9, w) {
			@Override
			public void visit(int version, int access, String name, String sig, String sup, String[] ifs) {
				super.visit(Opcodes.V1_5, access, name, sig, sup, ifs);
			}
		}, ClassReader.SKIP_FRAMES);
		Files.write(p, w.toByteArray());
	}
}
`
