package emulator

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Each reader claims its own files and only those; anything else is named in the error.
func TestDetectEachFormat(t *testing.T) {
	for file, want := range map[string]Format{
		"testdata/sieve-mips.bbprofile": FormatBBProfile,
		"testdata/forker-arm.bbprofile": FormatBBProfile,
		"testdata/arm-7.2.log":          FormatQEMULog,
	} {
		got, err := DetectFormat(file)
		if err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", file, got, err, want)
		}
	}
	other := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(other, []byte("just some notes\n"), 0o644)
	if _, err := DetectFormat(other); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("plain text: %v", err)
	}
}
