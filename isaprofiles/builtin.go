package isaprofiles

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"androprof/model/cost"
)

//go:embed builtin
var builtinFS embed.FS

// BuiltinNames lists the embedded profiles by profile name, sorted.
func BuiltinNames() []string {
	var names []string
	for _, b := range builtinFiles() {
		names = append(names, b.name)
	}
	sort.Strings(names)
	return names
}

type builtinFile struct{ name, file string }

var (
	builtinOnce  sync.Once
	builtinIndex []builtinFile
)

// builtinFiles parses each embedded file once to learn its profile name.
func builtinFiles() []builtinFile {
	builtinOnce.Do(func() { builtinIndex = indexBuiltins() })
	return builtinIndex
}

func indexBuiltins() []builtinFile {
	var out []builtinFile
	entries, _ := fs.ReadDir(builtinFS, "builtin")
	for _, e := range entries {
		if path.Ext(e.Name()) != ".xml" {
			continue
		}
		p, err := LoadBuiltinFile(e.Name())
		if err != nil {
			continue // the builtin tests fail on this; listing must not
		}
		out = append(out, builtinFile{p.Name, e.Name()})
	}
	return out
}

// LoadBuiltinFile parses one embedded file, e.g. "cortex-a8.xml".
func LoadBuiltinFile(file string) (*cost.Profile, error) {
	f, err := builtinFS.Open("builtin/" + file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, "builtin/"+file)
}

// Builtin returns a fresh copy of the named built-in profile. The name may be the profile
// name ("ARMv7-A Cortex-A8"), its file name ("cortex-a8.xml") or slug ("cortex-a8"), any case.
func Builtin(name string) (*cost.Profile, error) {
	want := strings.ToLower(strings.TrimSuffix(name, ".xml"))
	for _, b := range builtinFiles() {
		if strings.ToLower(b.name) == want || strings.TrimSuffix(b.file, ".xml") == want {
			return LoadBuiltinFile(b.file)
		}
	}
	return nil, fmt.Errorf("no built-in profile named %q (have: %s)", name, strings.Join(BuiltinNames(), ", "))
}
