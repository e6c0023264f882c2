// Package debpkg fetches Debian's own packages of a guest architecture (armhf, mipsel,
// arm64, amd64, …) and extracts them into a mini root that qemu-user runs with -L, so tests
// and the demo set profile the programs a user would run, stripped and dynamically linked as
// Debian ships them.
//
// apt runs with a private state under the cache folder: its own package lists and archive
// cache, an empty dpkg status, and APT::Architectures set to the one architecture, reusing the
// machine's sources and apt.conf. This changes nothing on the machine, unlike
// `dpkg --add-architecture` + `apt-get update`: no foreign architecture to restore when a
// download fails or the process is killed, no lock on /var/lib/apt held against the user's
// own apt. A private main config, read after apt.conf.d, clears the update hooks that would
// refresh the machine's caches (PackageKit, AppStream, docker-clean). As root, apt would drop
// to its _apt user to download, and _apt cannot enter a cache under /root (mode 0700), so apt
// stays root (APT::Sandbox::User).
package debpkg

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"androprof/internal/proc"
)

// updateEvery is how old the private package lists may grow before Root asks the mirror
// again: often enough that a Debian point release is fetched within a day, rarely enough that
// a warm Root costs no network and works offline.
const updateEvery = 24 * time.Hour

var (
	archName = regexp.MustCompile(`^[a-z0-9]+$`)
	pkgName  = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`) // Debian policy §5.6.1
)

// CacheDir is where roots are kept unless a caller says otherwise: they outlive a test run,
// so only the first run on a machine downloads.
func CacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for Debian packages: %w", err)
	}
	return filepath.Join(base, "androprof", "debian"), nil
}

// Root returns a folder holding pkgs of Debian architecture arch extracted with dpkg-deb
// (ROOT/bin/bzip2, ROOT/lib/ld-linux-armhf.so.3, …), for `qemu-arm -L ROOT ROOT/bin/prog`.
// It is kept in cacheDir under a name made of arch and the .deb files apt picked, so a new
// Debian version makes a new root. It appears whole or not at all (extracted aside, then
// renamed), and concurrent callers, in this process or another, wait for one another.
// Dependencies are not followed: name every package the program needs. Its links stay inside
// it (relativeLinks).
func Root(ctx context.Context, cacheDir, arch string, pkgs ...string) (string, error) {
	if !archName.MatchString(arch) {
		return "", fmt.Errorf("Debian architecture %q is not a name like armhf or mipsel", arch)
	}
	if len(pkgs) == 0 {
		return "", fmt.Errorf("no Debian package named for %s", arch)
	}
	for _, p := range pkgs {
		if !pkgName.MatchString(p) {
			return "", fmt.Errorf("%q is not a Debian package name", p)
		}
	}
	pkgs = slices.Compact(slices.Sorted(slices.Values(pkgs)))
	for _, t := range [][2]string{{"apt-get", "apt"}, {"dpkg-deb", "dpkg"}} {
		if _, err := exec.LookPath(t[0]); err != nil {
			return "", &proc.MissingToolError{Tool: t[0], Package: t[1], Purpose: "to fetch Debian's " + arch + " packages"}
		}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("Debian package cache: %w", err)
	}
	unlock, err := lock(ctx, filepath.Join(cacheDir, arch+".lock"))
	if err != nil {
		return "", fmt.Errorf("locking the %s package cache: %w", arch, err)
	}
	defer unlock()
	a, err := newApt(cacheDir, arch)
	if err != nil {
		return "", err
	}

	// A failed update is no error yet: lists from an earlier run still name versions (offline,
	// or one index of the mirror mid-sync), and a download from none says why with both.
	updateErr := a.update(ctx)
	// Holding the lock, any other temporary folder of arch is one a killed caller left.
	stale, _ := filepath.Glob(filepath.Join(cacheDir, "tmp-"+arch+"-*"))
	for _, d := range stale {
		os.RemoveAll(d)
	}
	tmp, err := os.MkdirTemp(cacheDir, "tmp-"+arch+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	debs, err := a.pick(ctx, tmp, pkgs)
	if err != nil {
		return "", errors.Join(err, updateErr)
	}
	key := sha256.New()
	fmt.Fprintln(key, layout)
	for _, d := range debs {
		fmt.Fprintln(key, d)
	}
	root := filepath.Join(cacheDir, arch+"-"+hex.EncodeToString(key.Sum(nil))[:16])
	if _, err := os.Stat(root); err == nil {
		return root, nil
	}
	if err := a.download(ctx, tmp, pkgs); err != nil {
		return "", errors.Join(err, updateErr)
	}
	dir := filepath.Join(tmp, "root")
	for _, d := range debs {
		deb := filepath.Join(tmp, strings.Fields(d)[0])
		if _, err := run(ctx, "", nil, "dpkg-deb", "-x", deb, dir); err != nil {
			return "", fmt.Errorf("extracting %s: %w", filepath.Base(deb), err)
		}
	}
	if err := relativeLinks(dir); err != nil {
		return "", fmt.Errorf("the %s root: %w", arch, err)
	}
	if err := os.Rename(dir, root); err != nil {
		return "", fmt.Errorf("keeping the %s root: %w", arch, err)
	}
	return root, nil
}

// layout names how Root lays a root out; it is part of a root's name, so a root made an older
// way is made again rather than reused.
const layout = "layout 2: absolute links made relative"

// relativeLinks rewrites every absolute symbolic link under root to the relative link that
// names the same file inside root. Debian's packages name files as the guest sees them (amd64's
// /lib64/ld-linux-x86-64.so.2 -> /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2), but the host
// resolves such a link from its own /: qemu-x86_64 -L ROOT would load the machine's dynamic
// loader, or none on a machine of another architecture, instead of the package's.
func relativeLinks(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		target, err := os.Readlink(path)
		if err != nil || !filepath.IsAbs(target) {
			return err
		}
		inGuest, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(filepath.Dir(filepath.Join("/", inGuest)), target)
		if err != nil {
			return err
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		return os.Symlink(rel, path)
	})
}

// apt runs apt-get on the private state of one architecture.
type apt struct {
	arch  string
	state string // cacheDir/apt-ARCH: lists/, cache/, apt.conf, updated
	opts  []string
	env   []string // APT_CONFIG names our config
}

// privateConf is read after the machine's apt.conf.d (as Dir::Etc::main), so its #clear wins
// over the hooks and architectures configured there.
const privateConf = `#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
#clear APT::Architectures;
APT::Architectures { "%[1]s"; };
APT::Architecture "%[1]s";
Acquire::Languages "none";
Acquire::IndexTargets::deb::DEP-11::DefaultEnabled "false";
Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled "false";
`

func newApt(cacheDir, arch string) (*apt, error) {
	a := &apt{arch: arch, state: filepath.Join(cacheDir, "apt-"+arch)}
	lists, cache := filepath.Join(a.state, "lists"), filepath.Join(a.state, "cache")
	for _, d := range []string{filepath.Join(lists, "partial"), filepath.Join(cache, "archives", "partial")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("%s package cache: %w", arch, err)
		}
	}
	if strings.ContainsAny(a.state, "\"\n") {
		return nil, fmt.Errorf("apt cannot read a folder named %q", a.state)
	}
	// APT_CONFIG is read first, apt.conf.d next, Dir::Etc::main last: our main goes last.
	conf, top := filepath.Join(a.state, "apt.conf"), filepath.Join(a.state, "apt-first.conf")
	var first, main strings.Builder
	if user := os.Getenv("APT_CONFIG"); user != "" && fileExists(user) {
		fmt.Fprintf(&first, "#include \"%s\";\n", user)
	}
	fmt.Fprintf(&first, "Dir::Etc::main \"%s\";\n", conf)
	if sys := "/etc/apt/apt.conf"; fileExists(sys) {
		fmt.Fprintf(&main, "#include \"%s\";\n", sys)
	}
	fmt.Fprintf(&main, privateConf, arch)
	for f, text := range map[string]string{top: first.String(), conf: main.String()} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			return nil, fmt.Errorf("%s package cache: %w", arch, err)
		}
	}
	a.env = append(os.Environ(), "APT_CONFIG="+top)
	a.opts = []string{"-q",
		"-o", "Dir::State::Lists=" + lists,
		"-o", "Dir::Cache=" + cache,
		"-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache=",
		"-o", "Dir::State::status=/dev/null",
	}
	if os.Geteuid() == 0 {
		a.opts = append(a.opts, "-o", "APT::Sandbox::User=root")
	}
	return a, nil
}

// update refreshes the lists when they are older than updateEvery.
func (a *apt) update(ctx context.Context) error {
	stamp := filepath.Join(a.state, "updated")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < updateEvery {
		return nil
	}
	out, err := a.run(ctx, "", "update")
	// apt fails the whole update for one index it could not fetch (a mirror mid-sync) yet
	// keeps the others, and only warns when it reached no mirror at all: having any Packages
	// index is what counts, and enough to wait a day before asking again.
	if got, _ := filepath.Glob(filepath.Join(a.state, "lists", "*_Packages*")); len(got) == 0 {
		if err == nil {
			err = fmt.Errorf("no package list fetched:\n%s", lastLines(out, 6))
		}
	} else if werr := os.WriteFile(stamp, nil, 0o644); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("apt-get update for %s: %w", a.arch, err)
	}
	return nil
}

// pick asks apt which .deb files it would download for pkgs: one line "FILE SIZE HASH" each,
// naming package, version and architecture. It runs in the empty dir because apt leaves out
// files already there.
func (a *apt) pick(ctx context.Context, dir string, pkgs []string) ([]string, error) {
	out, err := a.run(ctx, dir, append([]string{"download", "--print-uris"}, pkgs...)...)
	if err != nil {
		return nil, fmt.Errorf("apt-get download %s for %s: %w", strings.Join(pkgs, " "), a.arch, err)
	}
	var debs []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		// 'URI' FILE SIZE HASH
		if f := strings.Fields(sc.Text()); len(f) == 4 && strings.HasPrefix(f[0], "'") {
			debs = append(debs, strings.Join(f[1:], " "))
		}
	}
	if len(debs) != len(pkgs) {
		return nil, fmt.Errorf("apt-get download %s for %s named %d files:\n%s", strings.Join(pkgs, " "), a.arch, len(debs), out)
	}
	slices.Sort(debs)
	return debs, nil
}

func (a *apt) download(ctx context.Context, dir string, pkgs []string) error {
	if _, err := a.run(ctx, dir, append([]string{"download"}, pkgs...)...); err != nil {
		return fmt.Errorf("apt-get download %s for %s: %w", strings.Join(pkgs, " "), a.arch, err)
	}
	return nil
}

// run runs apt-get in dir and returns what it said; an error carries its last lines.
func (a *apt) run(ctx context.Context, dir string, args ...string) (string, error) {
	return run(ctx, dir, a.env, "apt-get", append(append([]string{}, a.opts...), args...)...)
}

func run(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	proc.KillGroup(cmd)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%w:\n%s", err, lastLines(out.String(), 6))
	}
	return out.String(), nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
