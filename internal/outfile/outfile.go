// Package outfile writes the files the workbench makes for the user (charts, exports, summaries,
// saved profiles, screenshots) so that the path named is never opened for writing: the file is
// written beside it under a temporary name and renamed over it. A symbolic link planted at the
// path (a shared folder, /tmp, a program run as root) is replaced, never followed, and a write
// that fails leaves whatever was there untouched.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// File is an output being written: a temporary file in the target's folder that Commit renames
// over the target and Abort removes.
type File struct {
	*os.File
	target string
	done   bool
}

// Create starts writing path. The temporary file asks for mode 0666, so the kernel applies the
// user's umask (os.CreateTemp's 0600 would hide the file from the user's group); a regular file
// written over keeps its own mode. A path that names something other than a file (a folder, a
// device, a FIFO, a link to one of them) is refused: renaming over it would replace it.
func Create(path string) (*File, error) {
	mode, err := modeFor(path)
	if err != nil {
		return nil, err
	}
	for {
		name := filepath.Join(filepath.Dir(path), fmt.Sprintf(".androprof-%016x.tmp", rand.Uint64()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		out := &File{File: f, target: path}
		if err != nil {
			return nil, out.failed("create", err)
		}
		if mode != 0 {
			if err := f.Chmod(mode); err != nil {
				out.Abort()
				return nil, out.failed("create", err)
			}
		}
		return out, nil
	}
}

// modeFor is the mode a file written over path keeps (0: the umask's), or why path cannot be
// written over.
func modeFor(path string) (fs.FileMode, error) {
	st, err := os.Stat(path) // through a link: a link to a device is refused like the device
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil // nothing there, or a dangling link: it is replaced
	}
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is %s: name a file to write", path, kind(st.Mode()))
	}
	if lst, err := os.Lstat(path); err == nil && lst.Mode().IsRegular() {
		return st.Mode().Perm(), nil
	}
	return 0, nil // a link: what it pointed at is none of the new file's business
}

// kind says in words what a path that is not a regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// Commit makes the written file the target: synced to disk, then renamed over it. replaced says
// there was a file (or a link) at the path before, so the caller can say so.
func (f *File) Commit() (replaced bool, err error) {
	if f.done {
		return false, fmt.Errorf("%s: already committed or aborted", f.target)
	}
	if err := f.Sync(); err != nil {
		f.Abort()
		return false, f.failed("write", err)
	}
	if err := f.Close(); err != nil {
		f.Abort()
		return false, f.failed("write", err)
	}
	_, err = os.Lstat(f.target)
	replaced = err == nil
	if err := os.Rename(f.Name(), f.target); err != nil {
		f.Abort()
		return false, f.failed("replace", err)
	}
	f.done = true
	return replaced, nil
}

// failed names the target, not the temporary file nobody asked for, in an error of the file
// system: "write out.png: no space left on device".
func (f *File) failed(op string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	if errors.As(err, &pe) {
		err = pe.Err
	} else if errors.As(err, &le) {
		err = le.Err
	}
	return &fs.PathError{Op: op, Path: f.target, Err: err}
}

// Abort removes the temporary file and leaves the target as it was; after Commit it does
// nothing, so it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}

// Write writes path with write, through a buffer: Create, write, Commit, or Abort on the first
// error. replaced says a file (or a link) at path was replaced.
func Write(path string, write func(io.Writer) error) (replaced bool, err error) {
	f, err := Create(path)
	if err != nil {
		return false, err
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == f.Name() { // the disk, not the writer
			return false, f.failed("write", err)
		}
		return false, err
	}
	if err := w.Flush(); err != nil {
		return false, f.failed("write", err)
	}
	return f.Commit()
}
