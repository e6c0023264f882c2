package calls

import "testing"

// Readable names are display: the report's keys stay Traceview's, the readable name sits
// beside them, and both find a row or a method.
func TestReadableNamesBesideKeys(t *testing.T) {
	paint := MethodInfo{ID: 0x30, Class: "com/jag/positron/GameScreen", Name: "paint", Signature: "(F)V"}
	bad := MethodInfo{ID: 0x40, Class: "com/jag/positron/GameScreen", Name: "odd", Signature: "(Q)V"}
	p, _ := build(t, []ev{
		{1, Enter, paint.ID, 0, 0}, {1, Enter, bad.ID, 1, 1}, {1, Exit, bad.ID, 2, 2}, {1, Exit, paint.ID, 4, 4},
	}, paint, bad)
	tr := &MethodTrace{Profile: p}
	for _, find := range []string{"GameScreen.paint (F)", "gamescreen.paint(float)", "com.jag.positron.GameScreen.paint("} {
		rep, err := tr.Report(MethodReportOptions{By: ByMethod, Find: find})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rows) != 1 || rep.Rows[0].Key != "com/jag/positron/GameScreen.paint (F)V" ||
			rep.Rows[0].Readable.Short != "GameScreen.paint(float)" || rep.Rows[0].Readable.Package != "com.jag.positron" {
			t.Errorf("find %q: rows %+v; want paint's, keyed as Traceview names it", find, rep.Rows)
		}
	}
	if n := ReadableName(bad); n.Short != MethodName(bad) || n.Package != "" {
		t.Errorf("a malformed descriptor reads %+v; want its raw name", n)
	}
	rep, err := tr.Report(MethodReportOptions{By: ByClass})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Key == "com/jag/positron/GameScreen" && (r.Readable.Short != "GameScreen" || r.Readable.Package != "com.jag.positron") {
			t.Errorf("class row %+v", r)
		}
	}
	for _, name := range []string{"com.jag.positron.GameScreen.paint(float)", "GameScreen.paint(float)", "com/jag/positron/GameScreen.paint (F)V"} {
		if id, err := p.FindMethod(name); err != nil || id != paint.ID {
			t.Errorf("FindMethod(%q) = %#x, %v; want paint", name, id, err)
		}
	}
	parents, _ := p.Relatives(p.Edges, RecursiveEdges(p.Tree), bad.ID, 0)
	if len(parents) != 1 || parents[0].Name != MethodName(paint) || parents[0].Readable.Short != "GameScreen.paint(float)" {
		t.Errorf("parents of odd: %+v", parents)
	}
}
