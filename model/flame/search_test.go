package flame

import (
	"regexp"
	"testing"
)

// tree is root(100) → {paint(60) → {draw(20) → paint(15), layout(30)}, tick(40) → paint(5)}, with
// paint in package ui and the rest in app.
func tree() (root, outer, inner, late *Node) {
	inner = &Node{Name: "View.paint()", Origin: "ui", Self: 15, Total: 15}
	draw := &Node{Name: "Canvas.draw()", Origin: "app", Self: 5, Total: 20, Children: []*Node{inner}}
	layout := &Node{Name: "View.layout()", Origin: "app", Self: 30, Total: 30}
	outer = &Node{Name: "View.paint()", Origin: "ui", Self: 10, Total: 60, Children: []*Node{draw, layout}}
	late = &Node{Name: "View.paint()", Origin: "ui", Self: 5, Total: 5}
	tick := &Node{Name: "Clock.tick()", Origin: "app", Self: 35, Total: 40, Children: []*Node{late}}
	root = &Node{Name: "all threads", Total: 100, Children: []*Node{outer, tick}}
	return root, outer, inner, late
}

// A recursive match counts once: paint's 60 µs hold the inner paint's 15, so the share is
// 60 + 5 (under tick), not 80.
func TestSearchCountsNestedMatchesOnce(t *testing.T) {
	root, outer, inner, late := tree()
	got, hits := Search(root, regexp.MustCompile(`paint`))
	if got != 65 || len(hits) != 3 || !hits[outer] || !hits[inner] || !hits[late] {
		t.Errorf("paint: %d under %d frames, want 65 under 3", got, len(hits))
	}
	if got, hits := Search(root, regexp.MustCompile(`^app$`)); got != 40+20+30 || len(hits) != 3 {
		t.Errorf("origin app: %d under %d frames, want 90 under 3 (tick, draw, layout)", got, len(hits))
	}
	if got, hits := Search(root, regexp.MustCompile(`nothing`)); got != 0 || len(hits) != 0 {
		t.Errorf("no match: %d, %d frames", got, len(hits))
	}
	if got, hits := Search(root, nil); got != 0 || len(hits) != 0 {
		t.Errorf("nil search: %d, %d frames", got, len(hits))
	}
	if got, _ := Search(nil, regexp.MustCompile(`.`)); got != 0 {
		t.Errorf("nil root: %d", got)
	}
	if got, _ := Search(root, regexp.MustCompile(`.`)); got != root.Total {
		t.Errorf("everything matches: %d, want the root's %d", got, root.Total)
	}
}
