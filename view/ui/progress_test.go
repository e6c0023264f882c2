package ui

import (
	"testing"
	"time"
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
