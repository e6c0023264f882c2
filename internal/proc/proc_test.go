package proc

import "testing"

func TestTailLines(t *testing.T) {
	var tail Tail
	tail.Max = 64
	tail.Write([]byte("failing on purpose\ntool: a summary\n\n"))
	if got := tail.LastLine(); got != "tool: a summary" {
		t.Errorf("LastLine %q", got)
	}
	if got := tail.LastLineWithout("tool:"); got != "failing on purpose" {
		t.Errorf("LastLineWithout %q", got)
	}
	if got := tail.LastWith("tool:"); got != "tool: a summary" {
		t.Errorf("LastWith %q", got)
	}
	if got := tail.LastLineWithout("tool:", "failing"); got != "" {
		t.Errorf("LastLineWithout of every line %q", got)
	}
	var empty Tail
	if got := empty.LastLine(); got != "" {
		t.Errorf("LastLine of nothing %q", got)
	}
}
