package flame_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"androprof/model/calls"
	"androprof/model/flame"
)

// dump writes a graph one frame a line, indented by depth: "name self/total", origins left
// out (folded stacks do not carry them), so two graphs compare as text.
func dump(n *flame.Node) string {
	var sb strings.Builder
	var walk func(n *flame.Node, depth int)
	walk = func(n *flame.Node, depth int) {
		fmt.Fprintf(&sb, "%s%s %d/%d\n", strings.Repeat("  ", depth), n.Name, n.Self, n.Total)
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return sb.String()
}

// checkTotals fails unless every frame's Total is its Self and its children's Totals.
func checkTotals(t *testing.T, what string, n *flame.Node) {
	t.Helper()
	var walk func(n *flame.Node) bool
	walk = func(n *flame.Node) bool {
		sum := n.Self
		for _, c := range n.Children {
			if !walk(c) {
				return false
			}
			sum += c.Total
		}
		if sum != n.Total {
			t.Errorf("%s: frame %q has Total %d, Self + children %d\n%s", what, n.Name, n.Total, sum, dump(n))
			return false
		}
		return true
	}
	walk(n)
}

// folded reads a graph written as folded stacks, failing the test on an error.
func folded(t *testing.T, text string) *flame.Node {
	t.Helper()
	root, err := flame.ReadFolded(strings.NewReader(text), "test.folded")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// methodTrace is a trace built by calls.CallBuilder from events: thread 1 runs main (method 1),
// which calls each method of selfs in turn for that many µs of thread-CPU time; names are
// "C.m<id> (Ljava/lang/String;)V", with the ';' a JVM descriptor has.
func methodTrace(t *testing.T, selfs []uint64) (*calls.CallProfile, []calls.CallNode) {
	t.Helper()
	b := calls.NewCallBuilder()
	b.Header(calls.TraceHeader{Clock: calls.ClockThreadCPU})
	b.Thread(calls.ThreadInfo{TID: 1, Name: "main"})
	for id := uint64(1); id <= uint64(len(selfs))+1; id++ {
		b.Method(calls.MethodInfo{ID: id, Class: "com/example/C", Name: fmt.Sprint("m", id), Signature: "(Ljava/lang/String;)V"})
	}
	now := uint64(0)
	ev := func(m uint64, a calls.MethodAction) {
		if err := b.Event(calls.MethodEvent{TID: 1, Method: m, Action: a, ThreadCPU: now}); err != nil {
			t.Fatal(err)
		}
	}
	ev(1, calls.Enter)
	for i, us := range selfs {
		ev(uint64(i+2), calls.Enter)
		now += us
		ev(uint64(i+2), calls.Exit)
	}
	ev(1, calls.Exit)
	p := b.Finish()
	return p, p.Tree
}

// A method run's graph written as folded stacks and read back is the same graph, with the
// descriptors' ';' written as ','.
func TestFoldedRoundTrip(t *testing.T) {
	p, tree := methodTrace(t, []uint64{10, 0, 7, 3})
	g := calls.Flame(p, tree, 0, false, calls.MethodName)
	var buf bytes.Buffer
	if err := flame.WriteFolded(&buf, g); err != nil {
		t.Fatal(err)
	}
	if strings.Count(buf.String(), "\n") != 3 || !strings.Contains(buf.String(), "thread 1 main;com/example/C.m1 (Ljava/lang/String,)V;com/example/C.m2 (Ljava/lang/String,)V 10\n") {
		t.Errorf("folded:\n%s", buf.String())
	}
	back, err := flame.ReadFolded(&buf, "g.folded")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(dump(g), ";", ",")
	want = strings.Replace(want, "all threads", flame.FoldedRoot, 1)
	if got := dump(back); got != want {
		t.Errorf("read back:\n%s\nwant\n%s", got, want)
	}
	checkTotals(t, "read back", back)
}

// Equal stacks add up, blank lines are skipped, and names keep their spaces.
func TestReadFoldedAddsEqualStacks(t *testing.T) {
	g := folded(t, "main;a b 2\n\nmain;c 1\nmain;a b 3\nmain 4\n")
	want := "all 0/10\n  main 4/10\n    a b 5/5\n    c 1/1\n"
	if got := dump(g); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Lines folded stacks cannot hold are errors naming the file and the line.
func TestReadFoldedErrors(t *testing.T) {
	for _, in := range []string{
		"a;b 1\nno-count\n",
		"a;b 1\na;b -3\n",
		"a;b 1\na;b 1.5\n",
		"a;b 1\na;b 9223372036854775807\n",
		"a;b 1\n" + strings.Repeat("f;", 100_000) + "f 1\n",
	} {
		_, err := flame.ReadFolded(strings.NewReader(in), "x.folded")
		if err == nil || !strings.HasPrefix(err.Error(), "x.folded:2: ") {
			t.Errorf("%q: %v, want an error at x.folded:2", in, err)
		}
	}
}

// Whatever a folded file holds, reading it never panics and gives a graph whose totals add up.
func FuzzReadFolded(f *testing.F) {
	for _, s := range []string{"a;b 1\n", "a;;b 2\n a 3", ";;; 4", "a 1\r\nb 2\n", "x 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := flame.ReadFolded(strings.NewReader(s), "fuzz")
		if err == nil {
			checkTotals(t, "fuzz", g)
		}
	})
}
