package store

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"androprof/model"
	"androprof/model/cost"
	"androprof/model/layers"
	"androprof/model/samples"
)

// sampleFixture has a value in every field, so a column mixed up on the way in or out shows.
func sampleFixture() *samples.SampleProfile {
	return &samples.SampleProfile{
		Header:  samples.SampleHeader{Format: "perf-script", Command: "java -cp /tmp/c Phases", Event: "cpu-clock", RateHz: 997},
		Threads: []samples.SampleThread{{PID: 100, TID: 100, Comm: "java"}, {PID: 100, TID: 104, Comm: "phase-sort"}},
		Symbols: []layers.SampleSymbol{
			{Image: "/tmp/perf-100.map", Symbol: "com.example.Phases.appLoop(I)J"},
			{Image: "[kernel.kallsyms]", Symbol: "do_syscall_64"},
			{Image: "[unknown]", Symbol: ""},
		},
		Nodes:       []samples.StackNode{{Parent: -1, Symbol: 0}, {Parent: 0, Symbol: 1}, {Parent: -1, Symbol: 2}},
		Samples:     []samples.SampleRec{{Thread: 0, Node: 1, TimeNS: 0, Period: 1003000}, {Thread: 1, Node: 2, TimeNS: 1002999, Period: math.MaxUint64}},
		LeftOut:     12,
		LeftOutWhy:  "threads phase-*",
		AppPackages: []string{"com.example", "org.demo"},
	}
}

func TestSampleRunRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	want := sampleFixture()
	if err := db.ImportSampleRun(ctx, "phases", "vertical java Phases", want); err != nil {
		t.Fatal(err)
	}
	got, err := db.SampleProfile(ctx, "phases")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}
	// An empty recording reads back as the builder leaves one: nil arrays.
	empty := &samples.SampleProfile{Header: samples.SampleHeader{Format: "simpleperf"}}
	if err := db.ImportSampleRun(ctx, "empty", "x", empty); err != nil {
		t.Fatal(err)
	}
	if got, err := db.SampleProfile(ctx, "empty"); err != nil || !reflect.DeepEqual(got, empty) {
		t.Errorf("empty round trip: %+v, %v", got, err)
	}
	if err := db.ImportSampleRun(ctx, "phases", "again", want); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second import under the same name: %v", err)
	}
	if _, err := db.HeapProfile(ctx, "phases"); err == nil || !strings.Contains(err.Error(), "is a sampled profile, not a heap log") {
		t.Errorf("a sampled run read as a heap log: %v", err)
	}
	if _, err := db.SampleProfile(ctx, "nope"); !errors.Is(err, cost.ErrNotFound) {
		t.Errorf("missing run: %v", err)
	}
	runs, err := db.Runs(ctx)
	if err != nil || len(runs) != 2 || runs[0].Kind != model.RunKindSamples {
		t.Errorf("runs = %+v, %v", runs, err)
	}
}

// sampleRows counts the rows of every sampled-run table.
func sampleRows(t *testing.T, db *DB) int {
	t.Helper()
	total := 0
	for _, tbl := range []string{"sample_info", "sample_app_package", "sample_thread", "sample_symbol", "sample_node", "sample"} {
		var n int
		if err := db.read.QueryRow(`SELECT count(*) FROM ` + tbl).Scan(&n); err != nil {
			t.Fatal(err)
		}
		total += n
	}
	return total
}

// A failed or cancelled import leaves nothing behind, and deleting a run takes its rows along.
func TestSampleImportFailureAndDelete(t *testing.T) {
	ctx := context.Background()
	db := openTemp(t)
	bad := sampleFixture()
	bad.Nodes[0].Parent = 2 // a parent after its child: the views would loop or index out of range
	if err := db.ImportSampleRun(ctx, "bad", "x", bad); err == nil || !strings.Contains(err.Error(), "stack node 0 has parent 2") {
		t.Errorf("import of a broken tree: %v", err)
	}
	bad = sampleFixture()
	bad.Samples[1].Thread = 2
	if err := db.ImportSampleRun(ctx, "bad", "x", bad); err == nil || !strings.Contains(err.Error(), "sample 1 names thread 2 of 2") {
		t.Errorf("import of a sample of no thread: %v", err)
	}
	// A failure at the last row of the last table: everything before it goes too.
	if _, err := db.write.Exec(`CREATE TRIGGER fail_last BEFORE INSERT ON sample WHEN NEW.seq = 1
		BEGIN SELECT RAISE(ABORT, 'the disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	if err := db.ImportSampleRun(ctx, "late", "x", sampleFixture()); err == nil || !strings.Contains(err.Error(), "the disk is full") {
		t.Errorf("import failing at its last row: %v", err)
	}
	if _, err := db.write.Exec(`DROP TRIGGER fail_last`); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.ImportSampleRun(ctx2, "cancelled", "x", sampleFixture()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled import: %v", err)
	}
	if runs, err := db.Runs(ctx); err != nil || len(runs) != 0 || sampleRows(t, db) != 0 {
		t.Errorf("after failed imports: runs %+v, %v, %d sample rows", runs, err, sampleRows(t, db))
	}
	if err := db.ImportSampleRun(ctx, "keep", "x", sampleFixture()); err != nil {
		t.Fatal(err)
	}
	kept := sampleRows(t, db)
	if err := db.ImportSampleRun(ctx, "gone", "x", sampleFixture()); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteRun(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if n := sampleRows(t, db); n != kept {
		t.Errorf("after deleting a run %d sample rows, want the other run's %d", n, kept)
	}
	if got, err := db.SampleProfile(ctx, "keep"); err != nil || !reflect.DeepEqual(got, sampleFixture()) {
		t.Errorf("the other run after a delete: %+v, %v", got, err)
	}
}
