package lines

import (
	"math"
	"strings"
	"testing"
)

func TestUint(t *testing.T) {
	for _, c := range []struct {
		in  string
		max uint64
		v   uint64
		ok  bool
	}{
		{"0", 10, 0, true},
		{"10", 10, 10, true},
		{"11", 10, 0, false},
		{"7", 5, 0, false}, // a digit above max
		{"9223372036854775807", math.MaxInt64, math.MaxInt64, true},
		{"9223372036854775808", math.MaxInt64, 0, false},
		{"18446744073709551615", math.MaxUint64, math.MaxUint64, true},
		{"18446744073709551616", math.MaxUint64, 0, false},
		{"", 10, 0, false},
		{"-1", 10, 0, false},
		{"+1", 10, 0, false},
		{"1a", 100, 0, false},
	} {
		v, ok := Uint([]byte(c.in), c.max)
		if v != c.v || ok != c.ok {
			t.Errorf("Uint(%q, %d) = %d, %v", c.in, c.max, v, ok)
		}
	}
}

func TestSplit(t *testing.T) {
	f, text, err := Split(nil, []byte("a b rest of it"), 2, true)
	if err != nil || len(f) != 2 || string(f[1]) != "b" || string(text) != "rest of it" {
		t.Errorf("%q %q %v", f, text, err)
	}
	if _, _, err := Split(nil, []byte("a  b"), 2, false); err == nil {
		t.Error("empty field accepted")
	}
	if _, _, err := Split(nil, []byte("a b"), 3, false); err == nil || !strings.Contains(err.Error(), "found 2") {
		t.Errorf("short line: %v", err)
	}
}

// Writers sanitize byte by byte, so text that is not UTF-8 survives a round trip unchanged.
func TestTextToken(t *testing.T) {
	if got := Text("a\tb\xff"); got != "a b\xff" {
		t.Errorf("Text = %q", got)
	}
	if got := Token("a b\x00c"); got != "a_b_c" {
		t.Errorf("Token = %q", got)
	}
	if s := "plain"; Text(s) != s || Token(s) != s {
		t.Error("clean text changed")
	}
}
