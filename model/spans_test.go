package model

import "testing"

func TestSpanKeeperStaysBounded(t *testing.T) {
	k := SpanKeeper{Budget: 100}
	for i := 0; i < 100_000; i++ {
		k.Add(Call{StartWall: 0, EndWall: uint64(i % 1000)})
	}
	if n := len(k.Calls()); n == 0 || n >= 200 {
		t.Fatalf("kept %d calls with a budget of 100", n)
	}
	for _, c := range k.Calls() {
		if c.EndWall < k.Min || c.EndWall < 900 {
			t.Fatalf("kept a %d µs call with Min %d", c.EndWall, k.Min)
		}
	}
}
