package emulator

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"androprof/model"
)

// Format names an input format `androprof import` can read.
type Format string

// FormatQEMULog is QEMU's -d in_asm and -d exec text output (formats.md §1.1, §1.2).
const FormatQEMULog Format = "qemu-log"

// FormatBBProfile is the project's basic-block profile (docs/bbprofile-format.md).
const FormatBBProfile Format = "bbprofile"

// ErrUnknownFormat says no reader recognised a file.
var ErrUnknownFormat = errors.New("not a format androprof can import")

// detector recognises one format. detect returns nil for a file in format, an error wrapping
// notMine for a file in some other format, and any other error when the file could not be
// judged (unreadable). Only notMine lets DetectFormat try the next detector, so a reader
// that fails for a real reason is not mistaken for "not mine" (google/pprof legacy_profile.go).
type detector struct {
	format  Format
	notMine error
	detect  func(path string) error
}

// detectors are tried in order: strict, cheap checks (a magic number) belong first, the text
// sniffers after them. A new reader adds its detector here.
var detectors = []detector{
	{FormatBBProfile, ErrNotBBProfile, SniffBBProfile},
	{FormatQEMULog, ErrNotQEMULog, sniffQEMULog},
}

// DetectFormat tells which reader takes path. For a directory every regular file must be in
// the same format, as ImportLogs reads them together. It reads the start of each file, so a
// pipe is consumed.
func DetectFormat(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return detectFile(path)
	}
	files, err := logFiles([]string{path})
	if err != nil {
		return "", err
	}
	var first Format
	for i, f := range files {
		got, err := detectFile(f.path)
		if err != nil {
			return "", err
		}
		if i == 0 {
			first = got
		} else if got != first {
			return "", fmt.Errorf("%s is %s but %s is %s: import them separately", f.path, got, files[0].path, first)
		}
	}
	return first, nil
}

func detectFile(path string) (Format, error) {
	for _, d := range detectors {
		err := d.detect(path)
		if err == nil {
			return d.format, nil
		}
		if !errors.Is(err, d.notMine) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: %w", path, ErrUnknownFormat)
}

// sniffLimit is how far into a file a QEMU log must show its first record. QEMU logs the
// first block's translation and execution before anything else of size.
const sniffLimit = 4 << 20

// sniffQEMULog accepts a file whose first record, within sniffLimit bytes, parses. Any error
// before that means the file is something else; a QEMU log garbled before its first record
// is no longer recognisable as one. Errors after it are the import's to report, with a line.
func sniffQEMULog(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	lr := NewLogReader(io.LimitReader(f, sniffLimit), filepath.Base(path), []model.ISA{})
	if _, err := lr.scanRaw(); err != nil { // scanRaw: an OBJD-T block needs no Trace line here
		return fmt.Errorf("%s: %w", path, ErrNotQEMULog)
	}
	return nil
}
