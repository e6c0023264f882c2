package flame_test

import (
	"math"
	"strings"
	"testing"

	"androprof/model/calls"
	"androprof/model/flame"
)

// later is game (focus_test.go) a while later: paint's own time and lib.init gone, a new
// method, and a longer run.
const later = `main;Game.loop;Game.paint;lib.draw 60
main;Game.loop;Game.paint;Game.paint;lib.draw 5
main;Game.loop;lib.sleep 20
main;Game.loop;Game.tick 9
main 7
`

// diff(A, B) = −diff(B, A) for every node and every row, exactly, in each grouping.
func TestDiffIsAntisymmetric(t *testing.T) {
	a, b := folded(t, game), folded(t, later)
	ab, ba := flame.Diff(a, b), flame.Diff(b, a)
	var walk func(x, y *flame.DiffNode)
	walk = func(x, y *flame.DiffNode) {
		if x.Name != y.Name || x.Change != -y.Change || x.SelfChange != -y.SelfChange || x.TotalA != y.TotalB || x.SelfB != y.SelfA ||
			len(x.Children) != len(y.Children) {
			t.Fatalf("node %q: %+v\nswapped %+v", x.Name, x, y)
		}
		for i := range x.Children {
			walk(x.Children[i], y.Children[i])
		}
	}
	walk(ab, ba)
	for _, by := range flame.DiffBys {
		rab, rba := flame.DiffRows(ab, by, 0.01), flame.DiffRows(ba, by, 0.01)
		swapped := map[string]flame.DiffRow{}
		for _, r := range rba {
			swapped[r.Key] = r
		}
		if len(rab) != len(rba) || len(rab) == 0 {
			t.Fatalf("by %s: %d rows, swapped %d", by, len(rab), len(rba))
		}
		for _, r := range rab {
			s := swapped[r.Key]
			if r.Change != -s.Change || r.SelfChange != -s.SelfChange || r.TotalA != s.TotalB || r.TotalB != s.TotalA ||
				r.SelfA != s.SelfB || r.Unchanged != s.Unchanged {
				t.Errorf("by %s, %q: %+v\nswapped %+v", by, r.Key, r, s)
			}
		}
	}
}

// The table by function counts a recursive method's total once per stack, sums its self time
// over its paths, and normalises each side to its own run's total.
func TestDiffRowsByFunction(t *testing.T) {
	rows := flame.DiffRows(flame.Diff(folded(t, game), folded(t, later)), flame.DiffByFunction, 0.01)
	got := map[string]flame.DiffRow{}
	for _, r := range rows {
		got[r.Key] = r
	}
	paint, draw := got["Game.paint"], got["lib.draw"]
	if paint.TotalA != 45 || paint.TotalB != 65 || paint.SelfA != 10 || paint.SelfB != 0 {
		t.Errorf("Game.paint: %+v", paint)
	}
	ta, tb, ra, rb := 45.0, 65.0, 80.0, 101.0 // variables: the constants' exact arithmetic is not float64's
	if want := tb/rb - ta/ra; paint.Change != want || paint.SelfChange != -10/ra {
		t.Errorf("Game.paint changes %v %v, want %v %v", paint.Change, paint.SelfChange, want, -10.0/80)
	}
	if draw.SelfA != 43 || draw.SelfB != 65 || draw.Unchanged {
		t.Errorf("lib.draw: %+v", draw)
	}
	if sleep := got["lib.sleep"]; sleep.SelfA != 20 || sleep.SelfB != 20 || !sleep.Unchanged == (math.Abs(sleep.SelfChange) < 0.01) {
		t.Errorf("lib.sleep: %+v", sleep)
	}
	if rows[0].Key != "Game.paint" || rows[1].Key != "lib.draw" {
		t.Errorf("first rows %q, %q, want the largest self changes, Game.paint's −12.5 points, then lib.draw's +10.6", rows[0].Key, rows[1].Key)
	}
}

// A pair of method traces built from events, where one method's time doubles: the table by
// function and by path shows exactly that method above a 1-point threshold, and nothing else.
// (Normalised, every other method's share shrinks by share × 1/21 here, under half a point.)
func TestDiffShowsTheDoubledMethod(t *testing.T) {
	selfs := []uint64{50, 60, 45, 55, 50, 40, 50, 50, 48, 52, 50, 50, 58, 42, 50, 50, 51, 49, 50, 50}
	pa, ta := methodTrace(t, selfs)
	selfs[6] *= 2 // method 8, "m8": 5% of the run
	pb, tb := methodTrace(t, selfs)
	a := calls.Flame(pa, ta, 0, false, calls.MethodName)
	b := calls.Flame(pb, tb, 0, false, calls.MethodName)
	d := flame.Diff(a, b)
	for _, by := range []flame.DiffBy{flame.DiffByFunction, flame.DiffByPath} {
		var changed []string
		for _, r := range flame.DiffRows(d, by, 0.01) {
			if !r.Unchanged {
				changed = append(changed, r.Key)
			}
		}
		if len(changed) != 1 || !strings.HasSuffix(changed[0], "com/example/C.m8 (Ljava/lang/String;)V") {
			t.Errorf("by %s: changed %q, want only m8", by, changed)
		}
	}
	if d.TotalA != 1000 || d.TotalB != 1050 {
		t.Errorf("roots %d, %d µs", d.TotalA, d.TotalB)
	}
}

// A run with no time has no shares: its changes are NaN (unknown), not 0.
func TestDiffOfAnEmptyRunIsUnknown(t *testing.T) {
	d := flame.Diff(&flame.Node{Name: "all"}, folded(t, game))
	if !math.IsNaN(d.Change) || !math.IsNaN(d.Children[0].SelfChange) {
		t.Errorf("changes %v, %v", d.Change, d.Children[0].SelfChange)
	}
}

// A recursion 200 calls deep: by function its total is counted once, not once per level; by
// path each level is a row, the deepest named by its last MaxPathFrames frames.
func TestDiffRowsOfADeepRecursion(t *testing.T) {
	stack := strings.Repeat("a;", 199) + "a"
	d := flame.Diff(folded(t, stack+" 1\n"), folded(t, stack+" 3\nb 1\n"))
	fn := flame.DiffRows(d, flame.DiffByFunction, 0)
	if len(fn) != 2 || fn[0].Key != "a" || fn[0].TotalA != 1 || fn[0].TotalB != 3 || fn[0].SelfB != 3 {
		t.Errorf("by function: %+v", fn)
	}
	paths := flame.DiffRows(d, flame.DiffByPath, 0)
	deepest := "…(136 frames);" + strings.Repeat("a;", flame.MaxPathFrames-1) + "a"
	var found bool
	for _, r := range paths {
		found = found || r.Key == deepest && len(r.Path) == flame.MaxPathFrames && r.SelfA == 1 && r.SelfB == 3
	}
	if len(paths) != 201 || !found {
		t.Errorf("by path: %d rows, deepest %q found %v", len(paths), deepest, found)
	}
}
