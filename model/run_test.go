package model

import (
	"strings"
	"testing"
)

func TestCheckRunName(t *testing.T) {
	for _, ok := range []string{"sieve", "sieve arm", "Σ-run ünïcode", "a/b:c", strings.Repeat("x", MaxRunName)} {
		if err := CheckRunName(ok); err != nil {
			t.Errorf("CheckRunName(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", " ", "\t", " lead", "trail ", "new\nline", "esc\x1b[31mred", "del\x7f",
		"bidi\u202egnp.exe", "sep\u2028x", "bad\xffutf8", strings.Repeat("x", MaxRunName+1)} {
		if err := CheckRunName(bad); err == nil {
			t.Errorf("CheckRunName(%q) accepted it", bad)
		}
	}
}

// Issue 24 finding 18: a refused name of 10 KB is echoed cut, whatever it is refused for.
func TestCheckRunNameEchoesCut(t *testing.T) {
	long := strings.Repeat("ü", 5<<10)
	for _, bad := range []string{long, " " + long, long[:MaxRunName-2] + "\x1b", long[:MaxRunName-1] + "\xff", " " + long[:MaxRunName-2]} {
		err := CheckRunName(bad)
		if err == nil || len(err.Error()) > 200 {
			t.Errorf("CheckRunName of %d bytes: %v", len(bad), err)
		}
	}
}
