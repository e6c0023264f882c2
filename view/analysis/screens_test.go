package analysis

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"androprof/controller"
	"androprof/internal/fastlane"
	"androprof/internal/viewtest"
	"androprof/isaprofiles"
	"androprof/model"
	"androprof/model/cost"
	"androprof/store"
	"androprof/store/storetest"
	"androprof/view/ui"
)

// feedWideRun is test input with something to draw: four processes, a dozen functions, blocks
// of catalogue instructions executed different numbers of times. Not measured data.
func feedWideRun(s cost.BlockSink) error {
	cat := isaprofiles.CatalogFor(cost.ARM).Entries
	names := []string{"zygote", "sieve", "sqlite", "mpegaudio"}
	for p, n := range names {
		if err := s.Process(model.Process{PID: 100 + p, Name: n}); err != nil {
			return err
		}
	}
	for i := 0; i < 60; i++ {
		pid := 100 + i%len(names)
		b := &cost.Block{PC: uint64(0x8000 + 64*i), ISA: cost.ARM, Symbol: fmt.Sprintf("%s_func_%d", names[i%len(names)], i/5)}
		for j := 0; j < 2+i%9; j++ {
			b.Insns = append(b.Insns, cost.Insn{Addr: b.PC + uint64(4*j), Encoding: "e1a00000",
				Mnemonic: cat[(i*7+j*13)%len(cat)].Mnemonic, Operands: "r0, r0"})
		}
		if err := s.Block(pid, b); err != nil {
			return err
		}
		if err := s.Count(pid, 0, b.PC, cost.ARM, int64(1+(i*37)%500)*int64(1+i%4)); err != nil {
			return err
		}
	}
	return nil
}

// TestAnalysisScreens draws every tab with the software painter and checks it is not blank;
// with ANALYSIS_SHOTS=DIR it also writes them there to look at.
func TestAnalysisScreens(t *testing.T) {
	fastlane.Slow(t, "paints every tab")
	db, err := store.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for name, feed := range map[string]func(cost.BlockSink) error{"wide": feedWideRun, "small": storetest.SmallRun} {
		if err := db.ImportRun(ctx, name, "test", feed); err != nil {
			t.Fatal(err)
		}
	}
	v := openWindow(test.NewTempApp(t), controller.NewWorkspace(db), &scriptedImporter{db: db})
	w := v.Window
	v.Wait()
	v.SelectRun("wide")
	v.Wait()
	v.Compare.Pick(cost.CompareItem{Run: "wide"}, true)
	v.Compare.Pick(cost.CompareItem{Run: "small"}, true)
	v.Wait()
	dir := os.Getenv("ANALYSIS_SHOTS")
	for i, item := range v.Tabs.Items {
		v.Tabs.SelectIndex(i)
		if i == 1 {
			v.Blocks.Table.Select(0)
		}
		w.Resize(Size.Add(fyne.NewSize(0, 1)))
		w.Resize(Size) // lay the tab out, which draws its charts
		v.Wait()
		img := w.Canvas().Capture()
		if colours := viewtest.CountColours(img); colours < 8 {
			t.Errorf("tab %s looks blank: %d colours", item.Text, colours)
		}
		if dir != "" {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%d-%s.png", i, ui.Slug(item.Text, "tab"))))
			if err != nil {
				t.Fatal(err)
			}
			png.Encode(f, img)
			f.Close()
		}
	}
}
