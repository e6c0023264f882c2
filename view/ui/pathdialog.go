package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// PathKind says whether a path dialog names a file to write or one that must exist.
type PathKind int

// The kinds of path dialog.
const (
	SaveFile PathKind = iota
	OpenFile
)

// PathRequest is what a path dialog asks for.
type PathRequest struct {
	Title, Action string   // "Save chart as PNG", "Save"
	Kind          PathKind // SaveFile asks before replacing a file; OpenFile wants one that exists
	Folder        string   // where a relative path, and Browse…, start; "" is the last folder used
	Name          string   // the file name suggested (SaveFile)
	Exts          []string // Browse… lists these; a saved name without an extension gets the first
}

// lastFolder is where the previous path dialog chose a file, so the next one starts there.
var lastFolder string

// AskPath asks for a file by path: typed or pasted (Enter accepts), or picked with Browse… in
// Fyne's file dialog, which a picked file accepts at once. Fyne's own dialog takes no typed
// path and shows only a few rows, so it is the second way in, not the only one. done runs on
// the UI goroutine with an absolute path; a cancel does nothing.
func AskPath(win fyne.Window, req PathRequest, done func(path string)) {
	if req.Folder == "" {
		req.Folder = startFolder()
	}
	entry := NewEntry()
	prefillPath(&entry.Entry, req)
	entry.Validator = func(s string) error { _, err := resolvePath(req, s); return err }
	var d *dialog.FormDialog
	accept := func(path string) {
		lastFolder = filepath.Dir(path)
		done(path)
	}
	browse := widget.NewButtonWithIcon("Browse…", theme.FolderOpenIcon(), func() {
		browseFor(win, req, entry.Text, func(path string) {
			d.Hide()
			accept(path)
		})
	})
	d = dialog.NewForm(req.Title, req.Action, "Cancel", []*widget.FormItem{widget.NewFormItem("File", newPathField(entry, browse))}, func(ok bool) {
		if !ok {
			return
		}
		path, err := resolvePath(req, entry.Text)
		if err != nil { // the validator passed a moment ago; the file system changed since
			ShowProblem(win, strings.ToLower(req.Action), entry.Text, err)
			return
		}
		if _, statErr := os.Stat(path); req.Kind == SaveFile && statErr == nil {
			dialog.ShowConfirm("Replace file?", fmt.Sprintf("%s exists already. Replace it?", path), func(yes bool) {
				if yes {
					accept(path)
				}
			}, win)
			return
		}
		accept(path)
	}, win)
	ShowForm(win, d, &entry.Entry) // Enter accepts only a usable path
}

// prefillPath puts the folder, or the suggested file in it, into the path entry, so that what is
// typed next names a file there: a file name after a folder, a name in place of the suggested one.
func prefillPath(e *widget.Entry, req PathRequest) {
	if req.Kind == OpenFile || req.Name == "" {
		prefillFolder(e, req.Folder)
		return
	}
	prefillFile(e, filepath.Join(req.Folder, req.Name))
}

// pathField is the path entry with its Browse… button. It passes the entry's validation on, so
// the form disables its button, and Enter does nothing, while the path names no usable file.
type pathField struct {
	widget.BaseWidget
	entry  *Entry
	browse *widget.Button
}

func newPathField(entry *Entry, browse *widget.Button) *pathField {
	f := &pathField{entry: entry, browse: browse}
	f.ExtendBaseWidget(f)
	return f
}

func (f *pathField) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, nil, f.browse, f.entry))
}

// Validate and SetOnValidationChanged make the field fyne.Validatable for the form.
func (f *pathField) Validate() error { return f.entry.Validate() }

func (f *pathField) SetOnValidationChanged(cb func(error)) { f.entry.SetOnValidationChanged(cb) }

// resolvePath turns what was typed into an absolute path, or says why it names no usable file.
func resolvePath(req PathRequest, typed string) (string, error) {
	p := strings.TrimSpace(typed)
	if p == "" {
		return "", errors.New("type a file's path")
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(req.Folder, p)
	}
	p = filepath.Clean(p)
	st, err := os.Stat(p)
	switch {
	case req.Kind == OpenFile && err != nil:
		return "", fmt.Errorf("%s: no such file", p)
	case err == nil && st.IsDir():
		return "", fmt.Errorf("%s is a folder: add a file name", p)
	case req.Kind == OpenFile:
		return p, nil
	}
	if filepath.Ext(p) == "" && len(req.Exts) > 0 {
		p += req.Exts[0]
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%s: no such folder", filepath.Dir(p))
	}
	return p, nil
}

// browseFor opens Fyne's file dialog, large, in the folder of what is typed.
func browseFor(win fyne.Window, req PathRequest, typed string, picked func(path string)) {
	folder := req.Folder
	if p := strings.TrimSpace(typed); filepath.IsAbs(p) {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			folder = p
		} else {
			folder = filepath.Dir(p)
		}
	}
	var fd *dialog.FileDialog
	if req.Kind == SaveFile {
		fd = dialog.NewFileSave(ChosenPath[fyne.URIWriteCloser](win, picked), win)
		name := req.Name
		if p := strings.TrimSpace(typed); p != "" && !strings.HasSuffix(p, string(filepath.Separator)) {
			name = filepath.Base(p)
		}
		fd.SetFileName(name)
	} else {
		fd = dialog.NewFileOpen(ChosenPath[fyne.URIReadCloser](win, picked), win)
	}
	if len(req.Exts) > 0 {
		fd.SetFilter(storage.NewExtensionFileFilter(req.Exts))
	}
	if dir, err := storage.ListerForURI(storage.NewFileURI(folder)); err == nil {
		fd.SetLocation(dir)
	}
	ShowLarge(fd)
	if req.Kind == SaveFile {
		selectSaveName(win)
	}
	closeDialogsOnEscape(win.Canvas())
}

// selectSaveName selects the name, not the extension, in the name entry of Fyne's Save dialog
// just shown, which has the keyboard, so a name typed there replaces it as in the path dialog.
func selectSaveName(win fyne.Window) {
	if e, ok := win.Canvas().Focused().(*widget.Entry); ok {
		prefillFile(e, e.Text)
	}
}

// startFolder is the folder a path dialog opens on: the last one used, else the working
// folder (where the user started the workbench), else home.
func startFolder() string {
	if lastFolder != "" {
		return lastFolder
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	home, _ := os.UserHomeDir()
	return home
}
