package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"androprof/emulator/qemutest"
)

// debianText is a deterministic text of about n bytes that compresses like prose: words of a
// small vocabulary in sentences, so bzip2 does real work in its sorting and Huffman stages.
func debianText(n int) []byte {
	r := rand.New(rand.NewPCG(13, 13))
	words := strings.Fields("the emulator counts every block of a program and its libraries while the kernel " +
		"answers system calls energy cycles time cost per image function loader thread process compress " +
		"stream sort huffman table symbol address offset")
	var b bytes.Buffer
	for b.Len() < n {
		for i := 3 + r.IntN(12); i > 0; i-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d.\n", r.IntN(100000))
	}
	return b.Bytes()
}

// TestDebianBzip2 is issue 13's user, and issue 26's "done" on 64-bit guests: Debian's own
// bzip2 for armhf, mipsel, arm64 and amd64 (stripped, dynamically linked against
// libbz2.so.1.0.4 and glibc) run through `androprof run` as a wrapper. Its output is the
// user's (a valid .bz2), its exit status the command's, its cost is in libbz2 by function
// name, the images add up to the process, and the instruction total is QEMU's own under
// -singlestep.
func TestDebianBzip2(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs Debian's bzip2 under QEMU twice per architecture")
	}
	for _, tc := range []struct{ arch, qemu string }{
		{"armhf", "qemu-arm"}, {"mipsel", "qemu-mipsel"}, {"arm64", "qemu-aarch64"}, {"amd64", "qemu-x86_64"},
	} {
		t.Run(tc.arch, func(t *testing.T) {
			t.Parallel() // each architecture has its own workspace, input and QEMU
			qemutest.Require(t, tc.qemu, "bzip2")
			root := qemutest.Debian(t, tc.arch, "bzip2", "libbz2-1.0", "libc6")
			dir := t.TempDir()
			in := filepath.Join(dir, "input.txt")
			text := debianText(64 << 10) // about 23 million instructions (armhf), streamed to the counter
			if err := os.WriteFile(in, text, 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "w.db")
			bzip2 := filepath.Join(root, "bin", "bzip2")

			// The wrapper: stdout is the program's, the summary goes to stderr.
			c := startChild(t, nil, "run", "--db", db, "--run", "bz", "--", bzip2, "-c", in)
			env := append(os.Environ(), childEnv+"=1", peakEnv+"="+c.peakFile) // the program's, to compare counts
			res := c.wait(t)
			if res.code != 0 {
				t.Fatalf("androprof run: exit %d\n%s", res.code, res.stderr)
			}
			cmd := exec.Command("bzip2", "-d")
			cmd.Stdin = strings.NewReader(res.stdout)
			plain, err := cmd.Output()
			if err != nil || !bytes.Equal(plain, text) {
				t.Fatalf("bzip2 -d of what androprof run wrote: %v (%d bytes back of %d)", err, len(plain), len(text))
			}
			if !strings.Contains(res.stderr, "INSTRUCTIONS") {
				t.Errorf("the summary is not on standard error:\n%s", res.stderr)
			}

			var byFunc, byImage, byPID report13
			readJSON(t, startChild(t, nil, "report", "--db", db, "--run", "bz", "--by", "function", "--json").wait(t), &byFunc)
			readJSON(t, startChild(t, nil, "report", "--db", db, "--run", "bz", "--by", "image", "--json").wait(t), &byImage)
			readJSON(t, startChild(t, nil, "report", "--db", db, "--run", "bz", "--by", "pid", "--json").wait(t), &byPID)

			// The cost is in libbz2, by name where Debian exports the function.
			named := false
			for i, r := range byFunc.Rows {
				if r.Key == "" || strings.Contains(r.Key, "(no symbol)") || r.Image == "" {
					t.Errorf("function row %d has no name or image: %+v", i, r)
				}
				if i < 5 && r.Image != "libbz2.so.1.0.4" {
					t.Errorf("row %d of the functions is %s in %s, not in libbz2.so.1.0.4", i, r.Key, r.Image)
				}
				named = named || (i < 10 && strings.HasPrefix(r.Key, "BZ2_"))
				if !strings.HasPrefix(r.Key, "BZ2_") && r.Image == "libbz2.so.1.0.4" && !strings.HasPrefix(r.Key, "libbz2.so.1.0.4+0x") {
					t.Errorf("libbz2 row %q is neither an exported BZ2_ name nor libbz2.so.1.0.4+0x…", r.Key)
				}
			}
			if !named {
				t.Errorf("no BZ2_* function among the ten costliest: %+v", byFunc.Rows[:min(10, len(byFunc.Rows))])
			}
			kinds := map[string]string{}
			var sum int64
			for _, r := range byImage.Rows {
				kinds[r.Image] = r.ImageKind
				sum += r.Instructions
			}
			if kinds["bzip2"] != "program" || kinds["libbz2.so.1.0.4"] != "library" || kinds["libc.so.6"] != "library" {
				t.Errorf("images and kinds: %v", kinds)
			}
			if sum != byPID.Totals.Instructions || byImage.Totals.Instructions != byPID.Totals.Instructions {
				t.Errorf("images add up to %d, the process ran %d", sum, byPID.Totals.Instructions)
			}

			// Exact: QEMU's own count of the same program on the same input.
			want := qemutest.SinglestepStream(t, env, tc.qemu, "-L", root, bzip2, "-c", in)
			if byPID.Totals.Instructions != want {
				t.Errorf("androprof counted %d instructions, qemu -singlestep %d", byPID.Totals.Instructions, want)
			}
			t.Logf("%s: %d instructions, %d images, top function %s (%s)", tc.arch, want, len(byImage.Rows), byFunc.Rows[0].Key, byFunc.Rows[0].Image)

			// The exit status is the program's.
			res = startChild(t, nil, "run", "--db", db, "--run", "bz-missing", "--quiet", "--", bzip2, "-d", filepath.Join(dir, "missing.bz2")).wait(t)
			if res.code != 1 || strings.Contains(res.stderr, "INSTRUCTIONS") || !strings.Contains(res.stderr, "bzip2") {
				t.Errorf("bzip2 -d of a missing file: exit %d (want bzip2's 1), stderr:\n%s", res.code, res.stderr)
			}
		})
	}
}

// report13 is what these tests read of `report --json`.
type report13 struct {
	Rows []struct {
		Key          string `json:"key"`
		Image        string `json:"image"`
		ImageKind    string `json:"image_kind"`
		Instructions int64  `json:"instructions"`
	} `json:"rows"`
	Totals struct {
		Instructions int64 `json:"instructions"`
	} `json:"totals"`
}

func readJSON(t *testing.T, res childResult, v any) {
	t.Helper()
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if err := json.Unmarshal([]byte(res.stdout), v); err != nil {
		t.Fatalf("%v\n%s", err, res.stdout)
	}
}

// TestImagesReportsAndCharts runs the image, layer and system-call reports and charts, and the
// per-image comparison, on a real plugin profile of a dynamically linked ARM program.
func TestImagesReportsAndCharts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "w.db")
	fixture := filepath.Join("..", "..", "formats", "bbprofile", "testdata", "dyn-arm.bbprofile.gz")
	for _, run := range []string{"a", "b"} {
		if code, _, errOut := runCLI(t, db, "import", "--run", run, fixture); code != 0 {
			t.Fatalf("import: %s", errOut)
		}
	}
	code, out, errOut := runCLI(t, db, "report", "--run", "a", "--by", "syscall")
	if code != 0 || !strings.Contains(out, "exit_group") || !strings.Contains(out, "write") {
		t.Errorf("report --by syscall: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, db, "report", "--run", "a", "--by", "layer")
	for _, layer := range []string{"program", "library", "loader"} {
		if code != 0 || !strings.Contains(out, layer) {
			t.Errorf("report --by layer lacks %s: exit %d\n%s%s", layer, code, out, errOut)
		}
	}
	var cmp struct {
		Rows []struct {
			Image string `json:"image"`
			Cells []struct {
				Item         string `json:"item"`
				Instructions int64  `json:"instructions"`
			} `json:"cells"` // one per item, as --compare lists them
		} `json:"rows"`
	}
	code, out, errOut = runCLI(t, db, "report", "--compare", "a,b", "--by", "image", "--json")
	if code != 0 {
		t.Fatalf("report --compare --by image: %s", errOut)
	}
	if err := json.Unmarshal([]byte(out), &cmp); err != nil || len(cmp.Rows) != 3 {
		t.Fatalf("want 3 image rows (program, libc, loader): %v\n%s", err, out)
	}
	for _, r := range cmp.Rows {
		if len(r.Cells) != 2 || r.Cells[0].Item != "a" || r.Cells[1].Item != "b" {
			t.Fatalf("image %s: cells %+v, want a's and b's", r.Image, r.Cells)
		}
		if a, b := r.Cells[0].Instructions, r.Cells[1].Instructions; a == 0 || a != b {
			t.Errorf("image %s: %d vs %d instructions in the same profile imported twice", r.Image, a, b)
		}
	}
	for _, by := range []string{"layer", "image", "syscall"} {
		png := filepath.Join(dir, by+".png")
		if code, _, errOut := runCLI(t, db, "chart", "--run", "a", "--by", by, "--out", png); code != 0 {
			t.Errorf("chart --by %s: %s", by, errOut)
		} else if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
			t.Errorf("chart --by %s wrote %v %v", by, st, err)
		}
	}
	png := filepath.Join(dir, "cmp.png")
	if code, _, errOut := runCLI(t, db, "chart", "--compare", "a,b", "--by", "image", "--out", png); code != 0 {
		t.Errorf("chart --compare --by image: %s", errOut)
	}
}
