package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The window opens a run under the same default as the command line (controller's one rule:
// the Cortex-A8 for ARM and Thumb, the 74K for MIPS), and a profile the user chose stays
// through run switches, an import and a program run for every run it prices.
func TestDefaultProfileAndTheUsersChoiceStays(t *testing.T) {
	v := openSieves(t)
	want := func(step, profile string) {
		t.Helper()
		if v.Profile.Selected != profile {
			t.Errorf("%s: profile %q, want %q", step, v.Profile.Selected, profile)
		}
	}
	showRun(v, "demo-sieve-arm", "")
	want("the ARM run at first", "ARMv7-A Cortex-A8")
	// androprof report --run demo-sieve-arm: 827,734 cycles, 0.511 mJ (the A15 said 1,033,759 and 1.52 mJ).
	if c := v.Processes.Table.Count.Text; !strings.Contains(c, "828 k cycles") || !strings.Contains(c, "511 µJ") {
		t.Errorf("the ARM run's totals %q", c)
	}
	showRun(v, "demo-sieve-mips", "")
	want("the MIPS run at first", "MIPS32 Release 2 74K")

	showRun(v, "demo-sieve-thumb", "ARMv7-A Cortex-A9")
	for _, run := range []string{"demo-sieve-mips", "demo-sieve-arm", "demo-sieve-mips", "demo-sieve-thumb"} {
		showRun(v, run, "")
		if run == "demo-sieve-mips" {
			want("after choosing the A9, "+run, "MIPS32 Release 2 74K") // the A9 does not price MIPS
		} else {
			want("after choosing the A9, "+run, "ARMv7-A Cortex-A9")
		}
	}
	source := filepath.Join(t.TempDir(), "small.log")
	if err := os.WriteFile(source, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	v.Runs.ImportFrom("imported", source, nil) // an ARM run
	v.Wait()
	want("after an import", "ARMv7-A Cortex-A9")
	v.Runs.Run("ran", source, nil, nil)
	v.Wait()
	want("after a program run", "ARMv7-A Cortex-A9")
}
