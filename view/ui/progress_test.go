package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func TestThrottleLetsOneEventPerInterval(t *testing.T) {
	th := throttle{every: 50 * time.Millisecond}
	t0 := time.Now()
	for _, c := range []struct {
		after time.Duration
		want  bool
	}{{0, true}, {10 * time.Millisecond, false}, {49 * time.Millisecond, false}, {60 * time.Millisecond, true}, {70 * time.Millisecond, false}} {
		if got := th.allow(t0.Add(c.after)); got != c.want {
			t.Errorf("allow at +%v = %v, want %v", c.after, got, c.want)
		}
	}
}

// The run dialog said "preparing the QEMU plugin" for the whole run: the next message came
// within the throttle's gap and was dropped, and nothing came after it. A message said too
// soon is now shown once the gap has passed, unless a newer one replaced it.
func TestActivitySaysTheLastStep(t *testing.T) {
	w := test.NewTempWindow(t, widget.NewLabel(""))
	a := NewActivityDialog("Running sieve", "Starting the emulator…", func() {}, w)
	a.Say("preparing the QEMU plugin")
	a.Say("running sieve under qemu-arm")
	shown := func() string {
		a.mu.Lock() // the timer sets the text under it
		defer a.mu.Unlock()
		return a.msg.Text
	}
	deadline := time.Now().Add(2 * time.Second)
	for shown() != "running sieve under qemu-arm" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := shown(); got != "running sieve under qemu-arm" {
		t.Fatalf("the dialog says %q while the program runs", got)
	}
}
