package controller

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"androprof/internal/corpus"
	"androprof/model/calls"
	"androprof/model/flame"
)

// corpusTraces are the method traces of ../shared/corpus, every one of them.
func corpusTraces(t *testing.T) []string {
	var names []string
	for _, pattern := range []string{"*.trace", "*.trace.gz"} {
		m, _ := filepath.Glob(filepath.Join(corpus.Dir(), pattern))
		for _, p := range m {
			names = append(names, filepath.Base(p))
		}
	}
	if len(names) == 0 {
		corpus.File(t, "perflib-basic.trace") // skips, saying why
	}
	return names
}

// byID names frames by method id, so a frame's path is its call path and nothing else.
func byID(m calls.MethodInfo) string { return strconv.FormatUint(m.ID, 16) }

// pathTimes is the inclusive time of every call path of one thread on one clock, computed from
// the stored call tree on its own: each node's exclusive time added to the node and every
// caller above it, keyed by the methods from the level-1 call down.
func pathTimes(tree []calls.CallNode, tid int, wall bool) map[string]int64 {
	out := map[string]int64{}
	for i, n := range tree {
		if n.TID != tid {
			continue
		}
		self := int64(n.ExclusiveCPU)
		if wall {
			self = int64(n.ExclusiveWall)
		}
		path := calls.CallPath(tree, i)
		for d := 1; d <= len(path); d++ {
			out[pathKey(path[:d])] += self
		}
	}
	for k, v := range out {
		if v == 0 {
			delete(out, k) // a flame graph cannot draw a path that took no time
		}
	}
	return out
}

func pathKey(ids []uint64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatUint(id, 16)
	}
	return strings.Join(parts, ";")
}

// walkFrames checks Total = Self + Σ children on every frame under a thread's frame and hands
// each frame's path (as pathKey writes it) and Total to seen.
func walkFrames(t *testing.T, thread *flame.Node, seen func(path string, total int64)) {
	t.Helper()
	var walk func(n *flame.Node, path string)
	walk = func(n *flame.Node, path string) {
		sum := n.Self
		for _, c := range n.Children {
			sum += c.Total
			p := c.Name
			if path != "" {
				p = path + ";" + c.Name
			}
			seen(p, c.Total)
			walk(c, p)
		}
		if sum != n.Total {
			t.Errorf("frame %s: total %d, self %d + children = %d", path, n.Total, n.Self, sum)
		}
	}
	walk(thread, "")
}

// Issue 28's "done means": on every corpus trace, thread by thread and on each clock it has, the
// flame graph's root is the thread's time as the profile table counts it (its thread row's
// exclusive time, which is also the table's 100%), every frame is as wide as its call path's
// inclusive time in the stored call tree, and every frame holds exactly its self time and its
// callees. The all-threads graph has one frame per thread, each that thread's graph.
func TestFlameFramesAreTheCallTreesInclusiveTimes(t *testing.T) {
	ctx := context.Background()
	for _, name := range corpusTraces(t) {
		t.Run(name, func(t *testing.T) {
			db := openStore(t)
			ma := &MethodAnalysis{store: db}
			importMethodRun(t, NewWorkspace(db).Importer(), "r", corpus.File(t, name))
			tr, err := ma.Load(ctx, "r")
			if err != nil {
				t.Fatal(err)
			}
			tree, err := db.CallTree(ctx, "r")
			if err != nil {
				t.Fatal(err)
			}
			cpu, real := ChartClocks(tr.Profile.Clock)
			for _, wall := range []bool{false, true} {
				if wall && !real || !wall && !cpu {
					continue
				}
				checkFlameClock(t, ma, tr, tree, wall)
			}
		})
	}
}

func checkFlameClock(t *testing.T, ma *MethodAnalysis, tr *calls.MethodTrace, tree []calls.CallNode, wall bool) {
	ctx := context.Background()
	rep, err := ma.Report(ctx, calls.MethodReportOptions{Run: "r", By: calls.ByThread})
	if err != nil {
		t.Fatal(err)
	}
	all, err := ma.Flame(ctx, "r", FlameOptions{Wall: wall, Name: byID})
	if err != nil {
		t.Fatal(err)
	}
	var sumThreads int64
	frames := 0
	for _, row := range rep.Rows {
		want, span := int64(row.Times.ExclusiveCPU), int64(row.Times.InclusiveCPU)
		if wall {
			want, span = int64(row.Times.ExclusiveWall), int64(row.Times.InclusiveWall)
		}
		root, err := ma.Flame(ctx, "r", FlameOptions{TID: row.TID, Wall: wall, Name: byID})
		if err != nil {
			t.Fatal(err)
		}
		if root.Total != want || root.Total != span {
			t.Errorf("%s, thread %s: the flame graph's root is %d µs, the profile table's thread row %d µs exclusive, %d µs inclusive",
				FlameClockText(wall), row.Key, root.Total, want, span)
		}
		sumThreads += root.Total
		paths := pathTimes(tree, row.TID, wall)
		seen := 0
		walkFrames(t, root, func(path string, total int64) {
			seen++
			if w, ok := paths[path]; !ok || w != total {
				t.Errorf("%s, thread %s, path %s: frame %d µs, call tree %d µs (found %v)", FlameClockText(wall), row.Key, path, total, w, ok)
			}
		})
		if seen != len(paths) {
			t.Errorf("%s, thread %s: %d frames, %d call paths with time", FlameClockText(wall), row.Key, seen, len(paths))
		}
		frames += seen
		// The same thread under the all-threads root is the same graph.
		i := slices.IndexFunc(all.Children, func(n *flame.Node) bool { return n.Name == root.Name })
		if root.Total > 0 && (i < 0 || all.Children[i].Total != root.Total) {
			t.Errorf("%s: thread %s is not under the all-threads root as %d µs", FlameClockText(wall), root.Name, root.Total)
		}
	}
	total := int64(rep.TotalCPU)
	if wall {
		total = int64(rep.TotalWall)
	}
	if all.Total != total || sumThreads != total {
		t.Errorf("%s: all threads %d µs, threads summed %d, the table's 100%% %d", FlameClockText(wall), all.Total, sumThreads, total)
	}
	if frames == 0 {
		t.Errorf("%s: no frame in %d threads", FlameClockText(wall), len(rep.Rows))
	}
	t.Logf("%s: %d threads, %d frames, %d µs", FlameClockText(wall), len(rep.Rows), frames, all.Total)
}

// A clock the trace did not record is an error that says which it has; the call tree is read
// once per run and forgotten with it.
func TestFlameClockAndCache(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	ma := &MethodAnalysis{store: db}
	importMethodRun(t, NewWorkspace(db).Importer(), "rmp", "../formats/rmp/testdata/browser.rmp")
	tr, err := ma.Load(ctx, "rmp")
	if err != nil {
		t.Fatal(err)
	}
	cpu, real := ChartClocks(tr.Profile.Clock)
	if cpu == real {
		t.Fatalf("browser.rmp has clock %q: this test wants a trace with one clock", tr.Profile.Clock)
	}
	_, err = ma.Flame(ctx, "rmp", FlameOptions{Wall: cpu})
	if err == nil || !strings.Contains(err.Error(), `"rmp"`) || !strings.Contains(err.Error(), clocksText(tr.Profile.Clock)) {
		t.Errorf("a flame graph on the missing clock: %v", err)
	}
	root, err := ma.Flame(ctx, "rmp", FlameOptions{Wall: real})
	if err != nil || root.Total <= 0 || root.Name != "all threads" {
		t.Fatalf("flame graph: %+v, %v", root, err)
	}
	if !hasFrame(root, func(n *flame.Node) bool {
		return n.Name == calls.MethodName(tr.Profile.Methods[tree0(t, db)]) && n.Origin != ""
	}) {
		t.Errorf("no frame named with calls.MethodName and its package")
	}
	dotted, err := ma.Flame(ctx, "rmp", FlameOptions{Wall: real, Package: strings.ToUpper})
	if err != nil || !hasFrame(dotted, func(n *flame.Node) bool { return n.Origin != "" && n.Origin == strings.ToUpper(n.Origin) }) ||
		hasFrame(dotted, func(n *flame.Node) bool { return n.Origin != strings.ToUpper(n.Origin) }) {
		t.Errorf("FlameOptions.Package did not name every frame's package (%v)", err)
	}
	if len(ma.trees.kept) != 1 {
		t.Errorf("%d call trees kept, want 1", len(ma.trees.kept))
	}
	ma.forget("rmp")
	if len(ma.trees.kept) != 0 {
		t.Errorf("forget kept %d call trees", len(ma.trees.kept))
	}
	if _, err := ma.Flame(ctx, "nope", FlameOptions{}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("a missing run: %v", err)
	}
}

func hasFrame(n *flame.Node, ok func(*flame.Node) bool) bool {
	if ok(n) {
		return true
	}
	for _, c := range n.Children {
		if hasFrame(c, ok) {
			return true
		}
	}
	return false
}

// tree0 is the method of the stored call tree's first node.
func tree0(t *testing.T, db MethodStore) uint64 {
	tree, err := db.CallTree(context.Background(), "rmp")
	if err != nil || len(tree) == 0 {
		t.Fatalf("call tree: %d nodes, %v", len(tree), err)
	}
	return tree[0].Method
}
