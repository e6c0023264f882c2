package ui

import (
	"io"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"androprof/internal/outfile"
)

// AskSavePath asks where to save and then calls write with the path, off the UI goroutine
// (a big CSV or SVG takes a moment); errors are shown in the window.
func AskSavePath(win fyne.Window, suggested, ext string, write func(path string) error) {
	req := PathRequest{Title: "Save " + strings.ToUpper(strings.TrimPrefix(ext, ".")), Action: "Save",
		Kind: SaveFile, Name: suggested, Exts: []string{ext}}
	AskPath(win, req, func(path string) {
		if filepath.Ext(path) == "" {
			path += ext
		}
		saves.Add(1)
		go func() {
			defer saves.Done()
			if err := write(path); err != nil {
				fyne.Do(func() { ShowProblem(win, "save", path, err) })
			}
		}()
	})
}

// saves counts the saves under way, for WaitSaves.
var saves sync.WaitGroup

// WaitSaves waits until every save AskSavePath started has written its file and said so: tests
// read the window after it (in Fyne's test driver fyne.Do runs on the saving goroutine).
func WaitSaves() { saves.Wait() }

// ShowLarge shows a file dialog big enough to list more than a handful of files. Resize must
// come after Show: Fyne 2.8's FileDialog.Resize reads the window that Show creates and panics
// (killing the program) without it.
func ShowLarge(fd *dialog.FileDialog) {
	fd.Show()
	fd.Resize(fyne.NewSize(800, 560))
}

// WriteFile writes a file the user saves through internal/outfile: a link planted at path is
// replaced (the path dialog has asked), never written through, and a save that fails leaves the
// file that was there.
func WriteFile(path string, write func(io.Writer) error) error {
	_, err := outfile.Write(path, write)
	return err
}

// subjects holds what each window shows (fyne.Window → run name), for the names of the files
// saved from it.
var subjects sync.Map

// SetSubject names what win shows, a run: the tables and charts saved from it are suggested as
// "RUN-processes.csv", so the exports of two runs neither overwrite each other nor need
// renaming. Every tab set of the window gets it, whoever made its tables.
func SetSubject(win fyne.Window, subject string) { subjects.Store(win, subject) }

// FileName is the name suggested for saving what is titled name from win: the subject (or,
// when it is "", the window's) before the name, unless the name already says it.
func FileName(win fyne.Window, subject, name, ext string) string {
	if subject == "" {
		s, _ := subjects.Load(win)
		subject, _ = s.(string)
	}
	base := Slug(name, "export")
	if s := Slug(subject, ""); s != "" && !strings.Contains(base, s) {
		base = s + "-" + base
	}
	return base + ext
}

// Slug turns a title into a file name: "Cycles by process — run" → "cycles-by-process-run".
func Slug(title, fallback string) string {
	s := strings.Join(strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}), "-")
	if s == "" {
		return fallback
	}
	return s
}
