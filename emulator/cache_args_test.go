package emulator

import (
	"context"
	"strings"
	"testing"

	"androprof/formats/bbprofile"
	"androprof/model/cost"
)

// The plugin's cache= argument survives QEMU's option parsing (commas split plugin arguments)
// and carries every part of each level in bytes.
func TestPluginCacheArg(t *testing.T) {
	g, err := cost.ParseCacheGeometry("l1i=32k:4:64,l1d=16k:2:32:plru:nwa,l2=1m:16:128:random,l3=8m:16:64:round-robin:wa")
	if err != nil {
		t.Fatal(err)
	}
	want := "l1i:32768:4:64:lru:wa;l1d:16384:2:32:plru:nwa;l2:1048576:16:128:random:wa;l3:8388608:16:64:round-robin:wa"
	if got := pluginCacheArg(g); got != want {
		t.Errorf("pluginCacheArg = %q, want %q", got, want)
	}
}

// A malformed geometry is refused before anything runs, with the level and the part named.
func TestRunRefusesABadGeometry(t *testing.T) {
	g := cost.CacheGeometry{Levels: []cost.CacheLevel{
		{Name: cost.L1I, SizeBytes: 32 << 10, Ways: 4, LineBytes: 64, Replacement: cost.LRU},
		{Name: cost.L1D, SizeBytes: 48 << 10, Ways: 4, LineBytes: 64, Replacement: cost.LRU},
		{Name: cost.L2, SizeBytes: 256 << 10, Ways: 8, LineBytes: 64, Replacement: cost.LRU},
	}}
	err := Run(context.Background(), RunOptions{Program: "/nonexistent/program", Cache: &g}, bbprofile.NewCollector(), nil)
	if err == nil || !strings.Contains(err.Error(), "l1d") || !strings.Contains(err.Error(), "not a power of two") {
		t.Errorf("Run with 48 KiB 4-way l1d: %v, want a refusal naming l1d's sets", err)
	}
}
