package runset

import (
	"fmt"
	"math/rand/v2"
)

// The cores the suite runs on: each is its own QEMU target and so its own default profile.
var (
	sieveArchs = []string{"arm", "thumb", "mips", "arm64", "x86-64"}
	bzip2Archs = []string{"arm", "arm64", "mips", "x86-64"}
	heapLogs   = []string{"cache", "garbage", "mutate", "threads"}
	// corpusTraces are the real traces other tools wrote, by the short name their runs get.
	corpusTraces = [][2]string{
		{"art", "art-trace-regular.trace.gz"}, {"sns", "sns-logout.trace"},
		{"basic", "perflib-basic.trace"}, {"exception", "perflib-exception.trace"},
	}
	corpusDumps = [][2]string{{"ri", "ahat-RI.hprof"}, {"dialer", "perflib-dialer.hprof"}}
)

// Plan lists the files of a set without making them. Each commit is PerCommit runs:
//
//	0–4  the sieve benchmark on the five cores (arm, thumb, mips, arm64, x86-64)
//	5    bzip2 on one of four cores (even commits, in turn) or the forking program (odd)
//	6    the app's method trace (demo-methods.trace); from the middle commit on, one method
//	     is slower (see regressedMethod)
//	7    a real trace of the corpus, in turn: ART, an old Dalvik thread-cpu one, two small ones
//	8    a perf recording of the phases program (even) or a cache-simulated sieve (odd)
//	9    memory: two of four commits a heap dump of the app (dumps/app-CCCC.hprof.gz) whose
//	     leak grows with the commit, one a heap log, one a corpus dump with the same leak
//
// so a set of any size holds every kind in the same proportions: six emulator runs in ten,
// two method traces, one sampled or cache run, one heap run.
func Plan(o Options) []File {
	files := make([]File, o.N)
	commits := (o.N + PerCommit - 1) / PerCommit
	for i := range files {
		c, slot := i/PerCommit, i%PerCommit
		f := planSlot(c, slot, o.Corpus != "")
		f.Commit = c
		rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
		f.Factor = factor(f, rng)
		if f.Kind == "trace" && f.Source == demoTrace && c >= commits/2 && commits > 1 {
			f.Regressed = true
		}
		files[i] = f
	}
	for _, i := range rand.New(rand.NewPCG(o.Seed, ^uint64(0))).Perm(o.N)[:o.Damaged] {
		files[i].Damaged = true
	}
	return files
}

const demoTrace = "demo-methods.trace.gz"

func planSlot(c, slot int, corpus bool) File {
	dir := fmt.Sprintf("commit-%04d/", c)
	switch {
	case slot < 5:
		a := sieveArchs[slot]
		return File{Path: dir + "sieve-" + a + ".bbprofile", Kind: "bbprofile", Source: "demo-sieve-" + a + ".bbprofile.gz"}
	case slot == 5 && c%2 == 0:
		a := bzip2Archs[c/2%len(bzip2Archs)]
		return File{Path: dir + "bzip2-" + a + ".bbprofile", Kind: "bbprofile", Source: "demo-bzip2-" + a + ".bbprofile.gz"}
	case slot == 5:
		return File{Path: dir + "forker-arm.bbprofile", Kind: "bbprofile", Source: "demo-forker-arm.bbprofile.gz"}
	case slot == 6:
		return File{Path: dir + "app.trace", Kind: "trace", Source: demoTrace}
	case slot == 7 && corpus:
		t := corpusTraces[c%len(corpusTraces)]
		return File{Path: dir + t[0] + ".trace", Kind: "trace", Source: "corpus:" + t[1]}
	case slot == 7:
		return File{Path: dir + "app2.trace", Kind: "trace", Source: demoTrace}
	case slot == 8 && c%2 == 0:
		return File{Path: dir + "phases.perfscript.gz", Kind: "perfscript", Source: "demo-vertical-phases.perfscript.gz"}
	case slot == 8:
		a := []string{"arm", "arm64"}[c/2%2]
		return File{Path: dir + "sieve-" + a + "-cache.bbprofile", Kind: "bbprofile", Source: "demo-sieve-" + a + "-cache.bbprofile.gz"}
	}
	return memorySlot(c, dir, corpus)
}

func memorySlot(c int, dir string, corpus bool) File {
	switch {
	case c%4 == 2:
		h := heapLogs[c/4%len(heapLogs)]
		return File{Path: dir + "heap-" + h + ".heaplog.gz", Kind: "heaplog", Source: "demo-heap-" + h + ".heaplog.gz"}
	case c%4 == 3 && corpus:
		d := corpusDumps[c/4%len(corpusDumps)]
		return File{Path: fmt.Sprintf("dumps/%s-%04d.hprof", d[0], c), Kind: "hprof", Source: "corpus:" + d[1]}
	}
	return File{Path: fmt.Sprintf("dumps/app-%04d.hprof.gz", c), Kind: "hprof", Source: "demo-heap-dump.hprof.gz"}
}

// factor is what a file's counts or times are scaled by: 1 to 1.3 for instruction counts
// (a commit that does more work, never less, so a cache run's misses stay below its
// fetches), 0.9 to 1.1 for a trace's times (machine noise); files kept whole keep 1.
func factor(f File, rng *rand.Rand) float64 {
	switch f.Kind {
	case "bbprofile":
		return 1 + 0.3*rng.Float64()
	case "trace":
		return 0.9 + 0.2*rng.Float64()
	}
	return 1
}

// LeakEntries is how many entries the leak of commit c's dumps holds: it grows by 8 a commit.
func LeakEntries(c int) int { return 8 * (c + 1) }
