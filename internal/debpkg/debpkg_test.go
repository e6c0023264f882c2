package debpkg_test

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"androprof/emulator/qemutest"
	"androprof/internal/debpkg"
)

var bzip2 = []string{"bzip2", "libbz2-1.0", "libc6"}

// TestRoot fetches Debian's bzip2 for armhf, mipsel, arm64 and amd64 into an empty cache, runs
// it under qemu-user and checks the host's bzip2 decompresses what it wrote; the machine's
// architectures must be left as they were.
func TestRoot(t *testing.T) {
	qemutest.Require(t, "apt-get", "dpkg-deb", "dpkg", "qemu-arm", "qemu-mipsel", "qemu-aarch64", "qemu-x86_64", "bzip2")
	before := foreignArchs(t)
	t.Cleanup(func() {
		if after := foreignArchs(t); after != before {
			t.Errorf("dpkg --print-foreign-architectures changed from %q to %q", before, after)
		}
	})
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // a cold cache, shared with qemutest.Debian
	cache, err := debpkg.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(t.TempDir(), "input.txt")
	if err := os.WriteFile(input, text(1<<20), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		arch    string
		class   elf.Class
		machine elf.Machine
		qemu    string
	}{
		{"armhf", elf.ELFCLASS32, elf.EM_ARM, "qemu-arm"},
		{"mipsel", elf.ELFCLASS32, elf.EM_MIPS, "qemu-mipsel"},
		{"arm64", elf.ELFCLASS64, elf.EM_AARCH64, "qemu-aarch64"},
		{"amd64", elf.ELFCLASS64, elf.EM_X86_64, "qemu-x86_64"},
	} {
		t.Run(tc.arch, func(t *testing.T) {
			// Two callers at once, the packages named in another order: one root, made once.
			start := time.Now()
			var roots [2]string
			var errs [2]error
			var wg sync.WaitGroup
			for i, pkgs := range [][]string{bzip2, {"libc6", "bzip2", "libbz2-1.0", "bzip2"}} {
				wg.Go(func() { roots[i], errs[i] = debpkg.Root(t.Context(), cache, tc.arch, pkgs...) })
			}
			wg.Wait()
			if err := errors.Join(errs[:]...); err != nil {
				qemutest.Missing(t, "%v", err)
			}
			root := roots[0]
			if roots[1] != root {
				t.Fatalf("concurrent calls made two roots: %s and %s", roots[0], roots[1])
			}
			t.Logf("cold fetch of %s for %s: %v, root %s, %.1f MB", strings.Join(bzip2, " "), tc.arch,
				time.Since(start).Round(time.Millisecond), root, float64(duSize(t, root))/1e6)

			prog := filepath.Join(root, "bin", "bzip2")
			f, err := elf.Open(prog)
			if err != nil {
				t.Fatal(err)
			}
			if f.Class != tc.class || f.Data != elf.ELFDATA2LSB || f.Machine != tc.machine {
				t.Errorf("%s is %v %v %v, want %v little-endian %v", prog, f.Class, f.Data, f.Machine, tc.class, tc.machine)
			}
			f.Close()
			linksInside(t, root)

			out, err := exec.Command(tc.qemu, "-L", root, prog, "-c", input).Output()
			if err != nil {
				t.Fatalf("%s bzip2 -c: %v\n%s", tc.qemu, err, stderr(err))
			}
			cmd := exec.Command("bzip2", "-d")
			cmd.Stdin = bytes.NewReader(out)
			back, err := cmd.Output()
			if err != nil {
				t.Fatalf("host bzip2 -d of what %s bzip2 wrote: %v\n%s", tc.arch, err, stderr(err))
			}
			if want, _ := os.ReadFile(input); !bytes.Equal(back, want) {
				t.Fatalf("bzip2 -d gave %d bytes back, not the %d of the input", len(back), len(want))
			}

			// Warm: the same root, nothing new in the cache, and what a killed caller left is gone.
			entries := cacheEntries(t, cache)
			if err := os.MkdirAll(filepath.Join(cache, "tmp-"+tc.arch+"-killed", "root", "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if again := qemutest.Debian(t, tc.arch, bzip2...); again != root {
				t.Errorf("second call returned %s, want the cached %s", again, root)
			}
			if now := cacheEntries(t, cache); !slices.Equal(now, entries) {
				t.Errorf("the cache was %v before, %v after a cached root", entries, now)
			}
		})
	}

	// With lists in place, apt's own words name what it does not know.
	_, err = debpkg.Root(t.Context(), cache, "armhf", "bzip2", "no-such-package-androprof")
	for _, w := range []string{"bzip2 no-such-package-androprof for armhf", "E: Unable to locate package no-such-package-androprof"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Root of an unknown package = %v, want it to say %q", err, w)
		}
	}
}

// TestRootErrors: names that are not Debian's never reach apt, where one could be an option.
func TestRootErrors(t *testing.T) {
	qemutest.Require(t, "apt-get", "dpkg-deb")
	cache := t.TempDir()
	for _, tc := range []struct {
		arch string
		pkgs []string
		want []string
	}{
		{"armhf", []string{"--print-uris"}, []string{`"--print-uris" is not a Debian package name`}},
		{"arm hf", []string{"bzip2"}, []string{`"arm hf"`}},
		{"armhf", nil, []string{"no Debian package named for armhf"}},
	} {
		_, err := debpkg.Root(t.Context(), cache, tc.arch, tc.pkgs...)
		if err == nil {
			t.Errorf("Root(%s, %v) succeeded", tc.arch, tc.pkgs)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Root(%s, %v) = %q, want it to say %q", tc.arch, tc.pkgs, err, w)
			}
		}
	}
}

// TestRootOffline: with no mirror reachable and nothing cached, the error carries apt's
// update warnings, which apt-get update itself exits 0 on.
func TestRootOffline(t *testing.T) {
	qemutest.Require(t, "apt-get", "apt-config", "dpkg-deb")
	if conf, _ := exec.Command("apt-config", "dump").Output(); bytes.Contains(conf, []byte("::Proxy")) {
		t.Skip("the machine's apt.conf.d sets a proxy, which wins over ours")
	}
	// The user's APT_CONFIG is kept: through it, the discard port (nothing listens) and no
	// retries (apt waits 7 s before giving up by default).
	conf := filepath.Join(t.TempDir(), "offline.conf")
	offline := "Acquire::http::Proxy \"http://127.0.0.1:9\";\nAcquire::https::Proxy \"http://127.0.0.1:9\";\nAcquire::Retries \"0\";\n"
	if err := os.WriteFile(conf, []byte(offline), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("APT_CONFIG", conf)
	_, err := debpkg.Root(t.Context(), t.TempDir(), "armhf", "bzip2")
	for _, w := range []string{"apt-get download bzip2 for armhf", "apt-get update for armhf: no package list fetched", "127.0.0.1:9"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Root offline = %v, want it to say %q", err, w)
		}
	}
}

// linksInside fails for a link the host would resolve outside root: qemu -L would then run
// the machine's file (amd64's /lib64/ld-linux-x86-64.so.2 names the loader by its absolute
// path) instead of the package's.
func linksInside(t *testing.T, root string) {
	t.Helper()
	links := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		links++
		target, err := os.Readlink(path)
		if err != nil {
			return err
		}
		if filepath.IsAbs(target) {
			t.Errorf("%s links to the absolute %s", path, target)
		} else if rel, _ := filepath.Rel(root, filepath.Join(filepath.Dir(path), target)); !filepath.IsLocal(rel) {
			t.Errorf("%s links to %s, outside the root", path, target)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if links == 0 {
		t.Errorf("no link in %s: libbz2.so.1.0 links to libbz2.so.1.0.4 in every architecture", root)
	}
}

func foreignArchs(t *testing.T) string {
	out, err := exec.Command("dpkg", "--print-foreign-architectures").Output()
	if err != nil {
		t.Fatalf("dpkg --print-foreign-architectures: %v", err)
	}
	return string(out)
}

// text is n bytes of numbered lines: compressible like a log, with enough variety that
// bzip2 sorts real blocks.
func text(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%06d block %x sort %d move-to-front %o huffman\n", i, i*2654435761%(1<<32), i%97, i*i%4093)
	}
	return b.Bytes()[:n]
}

func duSize(t *testing.T, root string) int64 {
	var n int64
	err := filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			st, err := d.Info()
			if err != nil {
				return err
			}
			n += st.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func cacheEntries(t *testing.T, cache string) []string {
	es, err := os.ReadDir(cache)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func stderr(err error) []byte {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.Stderr
	}
	return nil
}
