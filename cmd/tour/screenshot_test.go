package main

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"androprof/internal/fastlane"
)

// TestMain lets the test binary stand in for the tour, so the screenshot and end-to-end tests
// run the real program without a second cgo build.
func TestMain(m *testing.M) {
	if os.Getenv("ANDROPROF_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestScreenshot opens the real windows under Xvfb and checks each PNG shows something.
func TestScreenshot(t *testing.T) {
	fastlane.Needs(t, "xvfb-run")
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xvfb-run is not installed; .ci/run must install xvfb")
		}
		t.Skip("xvfb-run not installed (apt-get install xvfb xauth)")
	}
	dir := t.TempDir()
	cmd := exec.Command(xvfb, "-a", "-s", "-screen 0 1280x1024x24", os.Args[0],
		"screenshot", "--out", dir, "--db", filepath.Join(dir, "w.db"))
	cmd.Env = append(os.Environ(), "ANDROPROF_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tour screenshot: %v\n%s", err, out)
	}
	// The editor and its memory hierarchy, every tab of the analysis window showing the demo data set, every method
	// tab showing its method trace (assets/demo/demo-methods.trace.gz), and heap tabs and
	// figures on the demo heap log and dump, and the sampled-run tabs on the demo vertical profile.
	want := []string{"editor", "editor-memory", "analysis-processes", "analysis-basic", "analysis-instructions",
		"analysis-functions", "analysis-estimate", "analysis-compare", "analysis-profiles", "analysis-diff",
		"methods-profile", "methods-timeline", "methods-hotspots", "methods-packages", "methods-compare", "methods-diff",
		"heap-summary", "heap-5.1", "heap-5.7", "heap-5.23", "heap-packages", "dump-summary", "dump-classes", "dump-pointers",
		"dump-instances", "dump-object", "dump-leaks",
		"samples-layers", "samples-symbols", "samples-callers-callees", "samples-flame-graph", "samples-diff"}
	_, gcc := exec.LookPath("arm-linux-gnueabihf-gcc")
	if _, qemu := exec.LookPath("qemu-arm"); gcc == nil && qemu == nil { // simulatedRun runs the sieve
		want = append(want, "cache-estimate", "cache-functions", "cache-basic")
	}
	printed := strings.Fields(string(out))
	for _, w := range want {
		name := w + ".png"
		if !slices.Contains(printed, filepath.Join(dir, name)) {
			t.Errorf("screenshot did not write %s; it printed %q", name, printed)
			continue
		}
		img := decode(t, filepath.Join(dir, name))
		b := img.Bounds()
		if b.Dx() < 800 || b.Dy() < 500 {
			t.Errorf("%s is only %dx%d", name, b.Dx(), b.Dy())
		}
		colours, top := histogram(img)
		if colours < 16 || top > 0.97 {
			t.Errorf("%s looks blank: %d colours, the commonest covers %.0f%%", name, colours, top*100)
		}
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// histogram returns the number of distinct colours and the share of the commonest one.
func histogram(img image.Image) (int, float64) {
	counts := map[[4]uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[[4]uint32{r, g, bl, a}]++
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	return len(counts), float64(most) / float64(b.Dx()*b.Dy())
}
