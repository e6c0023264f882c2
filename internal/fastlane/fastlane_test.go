package fastlane

import "testing"

// The fast lane skips: under -short neither helper lets the test go on.
func TestShortSkips(t *testing.T) {
	for name, leave := range map[string]func(testing.TB){
		"Needs": func(t testing.TB) { Needs(t, "a program") },
		"Slow":  func(t testing.TB) { Slow(t, "a long wait") },
	} {
		t.Run(name, func(t *testing.T) {
			leave(t)
			if testing.Short() {
				t.Fatal("went on under -short")
			}
		})
	}
}
