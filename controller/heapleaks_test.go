package controller

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"androprof/internal/corpus"
	heapmodel "androprof/model/heap"
)

// leakLines sums suspects up, one line each: rule, class, the trace's references and marks.
func leakLines(found []heapmodel.LeakSuspect) []string {
	var out []string
	for _, s := range found {
		var steps []string
		for _, st := range s.Trace {
			mark := ""
			if st.Suspect {
				mark = "~"
			}
			steps = append(steps, fmt.Sprintf("%s%s:%s", mark, st.Field, st.Leaking))
		}
		out = append(out, fmt.Sprintf("%s %s also %d: %s", s.Rule, s.Class, s.Also, strings.Join(steps, " ")))
	}
	return out
}

// The corpus dumps, whose findings were checked by reading their objects' fields
// (docs/heap-leaks.md lists them): the dialer holds a destroyed IntentService in a static
// field (its looper's queue has quit, ActivityThread.mServices is empty) and two accumulation
// points; the RI dump one big byte[].
func TestLeaksOnCorpusDumps(t *testing.T) {
	ctx := context.Background()
	ws := NewWorkspace(openStore(t))
	want := map[string][]string{
		"perflib-dialer.hprof": {
			"destroyed Service com.android.dialer.calllog.CallLogNotificationsService also 1: system class:NO ~sInstance:UNKNOWN ~mContext:YES",
			"accumulation point android.util.LongSparseArray[] also 0: system class:NO sPreloadedDrawables:UNKNOWN",
			"accumulation point class org.apache.harmony.security.fortress.Services also 0: system class:NO",
		},
		"ahat-RI.hprof": {
			"accumulation point byte[] also 0: JNI global:NO stuff:UNKNOWN bigArray:UNKNOWN",
		},
	}
	for name, lines := range want {
		path := corpus.File(t, name)
		if err := ws.Importer().ImportFiles(ctx, name, []string{path}, nil); err != nil {
			t.Fatal(err)
		}
		found, err := ws.HeapDumps.Leaks(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := leakLines(found); strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(lines, "\n"))
		}
	}
	// Two unrelated dumps: the second's three suspects are all new (the Service with the queue it
	// also retains, 2 leaking objects); the first's accumulation point is gone, so it did not grow.
	grown, err := ws.HeapDumps.GrownLeaks(ctx, "ahat-RI.hprof", "perflib-dialer.hprof", heapmodel.LeakOptions{})
	if err != nil || len(grown) != 3 || grown[0].Rule != heapmodel.AccumulationRule || grown[2].After != 2 {
		t.Errorf("grown from the RI dump to the dialer's: %+v (%v)", grown, err)
	}
}
