package flame_test

import (
	"fmt"
	"regexp"
	"testing"

	"androprof/model/flame"
)

// game is a small graph with a recursion (Game.paint under Game.paint) and a method, draw,
// called from two places.
const game = `main;Game.loop;Game.paint;lib.draw 30
main;Game.loop;Game.paint;Game.paint;lib.draw 5
main;Game.loop;Game.paint 10
main;Game.loop;lib.sleep 20
main;lib.init;lib.draw 8
main 7
`

// Each operation leaves a graph whose totals add up, says what it hid or moved, keeps the
// root's total where it should (Only, Merge) or lowers it by exactly what it hid (Keep, Hide),
// and leaves the graph it was given as it was.
func TestFocusOperations(t *testing.T) {
	for _, c := range []struct {
		name   string
		op     func(*flame.Node) flame.Focused
		want   string
		hidden int64
		moved  int64
		text   string
	}{
		{"keep", func(g *flame.Node) flame.Focused { return flame.Keep(g, regexp.MustCompile(`^Game\.paint$`)) },
			"all 0/45\n  main 0/45\n    Game.loop 0/45\n      Game.paint 10/45\n        Game.paint 0/5\n          lib.draw 5/5\n        lib.draw 30/30\n",
			35, 0, "35 µs of 80 µs (43.8%) hidden by focus on /^Game\\.paint$/"},
		{"only", func(g *flame.Node) flame.Focused { return flame.Only(g, regexp.MustCompile(`^Game\.`)) },
			"all 15/80\n  Game.loop 20/65\n    Game.paint 40/45\n      Game.paint 5/5\n",
			0, 70, "70 µs of 80 µs (87.5%) in frames not matching /^Game\\./, shown as their callers' self time"},
		{"merge", func(g *flame.Node) flame.Focused { return flame.Merge(g, "Game.paint") },
			"all 0/80\n  main 7/80\n    Game.loop 10/65\n      lib.draw 35/35\n      lib.sleep 20/20\n    lib.init 0/8\n      lib.draw 8/8\n",
			0, 10, "Game.paint merged into its callers: 10 µs of 80 µs (12.5%) of self time now theirs"},
		{"hide", func(g *flame.Node) flame.Focused {
			return flame.HideSubtree(g, []string{"main", "Game.loop", "Game.paint"})
		},
			"all 0/35\n  main 7/35\n    Game.loop 0/20\n      lib.sleep 20/20\n    lib.init 0/8\n      lib.draw 8/8\n",
			45, 0, "45 µs of 80 µs (56.2%) hidden with main;Game.loop;Game.paint and what it called"},
		{"hide a path that is not there", func(g *flame.Node) flame.Focused { return flame.HideSubtree(g, []string{"main", "nope"}) },
			dump(folded(t, game)), 0, 0, "no frame at main;nope: nothing hidden"},
	} {
		g := folded(t, game)
		before := dump(g)
		f := c.op(g)
		if got := dump(f.Root); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
		checkTotals(t, c.name, f.Root)
		if f.Whole != g.Total || f.Hidden != c.hidden || f.Moved != c.moved || f.Root.Total != g.Total-f.Hidden {
			t.Errorf("%s: whole %d hidden %d moved %d root %d, want %d %d %d %d", c.name, f.Whole, f.Hidden, f.Moved,
				f.Root.Total, g.Total, c.hidden, c.moved, g.Total-c.hidden)
		}
		if txt := f.Text(func(v int64) string { return fmt.Sprint(v, " µs") }); txt != c.text {
			t.Errorf("%s: text %q\nwant %q", c.name, txt, c.text)
		}
		if dump(g) != before {
			t.Errorf("%s changed the graph it was given", c.name)
		}
	}
}

// A regular expression that matches nothing leaves Keep an empty graph with all of it hidden,
// and Only the root with all of it as its own time.
func TestFocusMatchingNothing(t *testing.T) {
	g := folded(t, game)
	re := regexp.MustCompile(`nothing`)
	if k := flame.Keep(g, re); k.Root.Total != 0 || k.Hidden != 80 || len(k.Root.Children) != 0 {
		t.Errorf("keep: %+v", k)
	}
	if o := flame.Only(g, re); o.Root.Total != 80 || o.Root.Self != 80 || len(o.Root.Children) != 0 || o.Frames != 9 {
		t.Errorf("only: %+v\n%s", o, dump(o.Root))
	}
}

// PathOf gives the path HideSubtree takes; the root has none.
func TestPathOf(t *testing.T) {
	g := folded(t, game)
	paint := g.Children[0].Children[0].Children[0]
	if p := flame.PathOf(g, paint); fmt.Sprint(p) != "[main Game.loop Game.paint]" {
		t.Errorf("path %q", p)
	}
	if p := flame.PathOf(g, g); p != nil {
		t.Errorf("root's path %q", p)
	}
	if p := flame.PathOf(g, &flame.Node{}); p != nil {
		t.Errorf("path of a frame not in the graph %q", p)
	}
}
