package builtingen

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The published measurements the memory tables derive miss costs and access energies from
// (docs/memory.md): memory-latency runs of sbc-bench, which records the latency of random reads
// per buffer size on a board, and Horowitz's per-access SRAM energies.

// ramlat is one sbc-bench run of ramlat (Willy Tarreau's random-read latency test) on one core:
// the latency in ns of one pointer-sized random read at a time (the column 1xPTR) per buffer
// size, as a results file of github.com/ThomasKaiser/sbc-bench records it.
type ramlat struct {
	file    string // results/<file>.txt
	run     string // what the file's header and OPP check say of the board, its clock and kernel
	section string // the heading of the ramlat table read
	ns      map[string]float64
}

func (r ramlat) source() string {
	return fmt.Sprintf("Thomas Kaiser's sbc-bench, results/%s.txt (https://github.com/ThomasKaiser/sbc-bench/blob/"+
		"master/results/%[1]s.txt; %s), table '%s, results in ns', column 1xPTR", r.file, r.run, r.section)
}

// latency is the run's figure for a buffer size; a size the table does not carry is a bug.
func (r ramlat) latency(size string) float64 {
	v, ok := r.ns[size]
	if !ok {
		panic("ramlat " + r.file + ": no " + size + " row")
	}
	return v
}

// miss is the extra wait of a miss at a level as the run shows it: the latency with a buffer
// that misses the level (next) less the latency with one that hits it (here), in ns, converted
// at ghz. The text names both rows and the clock; why the clock is that one is the caller's.
func (r ramlat) miss(here, hereWhat, next, nextWhat string, ghz float64) (cycles float64, text string) {
	ns := r.latency(next) - r.latency(here)
	cycles = nsToCycles(ns, ghz)
	ns = math.Round(ns*1000) / 1000 // the table's precision, for the text
	return cycles, fmt.Sprintf("%s: %s ns with a %s buffer (%s), %s ns with a %s buffer (%s); a miss here "+
		"waits %s ns more than a hit, %s cycles at %s GHz.", r.source(), num(r.latency(here)), sizeName(here),
		hereWhat, num(r.latency(next)), sizeName(next), nextWhat, num(ns), num(cycles), num(ghz))
}

// sizeName writes a ramlat row label ("64k", "65536k") as docs do ("64 KB", "64 MB").
func sizeName(row string) string {
	kb, err := strconv.ParseInt(strings.TrimSuffix(row, "k"), 10, 64)
	if err != nil {
		panic("ramlat row " + row)
	}
	return bytesName(kb << 10)
}

// bytesName writes a cache or buffer size in KB, or in MB from 1 MB on.
func bytesName(b int64) string {
	if b >= 1<<20 {
		return fmt.Sprintf("%d MB", b>>20)
	}
	return fmt.Sprintf("%d KB", b>>10)
}

// ramlatRows says how the buffer sizes read from a ramlat run were chosen, once per citation.
const ramlatRows = "Rows read: a level is hit with the smallest buffer at least twice the capacity of the " +
	"levels above it, and main memory with the 64 MB buffer, where the curves level off; the 64 MB figure " +
	"includes the page-table walks of 4 KB pages and depends on the board's DRAM and its clock."

// The sbc-bench runs the tables read.
var (
	rock5BA76 = ramlat{file: "4qJr", run: "sbc-bench v0.9.39, 'Radxa ROCK 5B review', 13 March 2023: RK3588 on " +
		"Linux 5.10.110, A76 cores at 2400 MHz, DRAM controller at 2112 MHz",
		section: "Executing ramlat on cpu4 (Cortex-A76)",
		ns:      map[string]float64{"4k": 1.721, "128k": 5.326, "2048k": 19.19, "65536k": 134.0}}
	rock5BA55 = ramlat{file: "4qJr", run: "sbc-bench v0.9.39, 'Radxa ROCK 5B review', 13 March 2023: RK3588 on " +
		"Linux 5.10.110, A55 cores at 1800 MHz, DRAM controller at 2112 MHz",
		section: "Executing ramlat on cpu0 (Cortex-A55)",
		ns:      map[string]float64{"4k": 1.102, "64k": 9.956, "512k": 15.94, "65536k": 134.4}}
	a10A8 = ramlat{file: "4MC0", run: "sbc-bench v0.9.57, 'Olimex A10-OLinuXino-LIME', 27 November 2023: " +
		"Allwinner A10, one Cortex-A8 at 912 MHz (908 measured), Linux 5.10.60",
		section: "Executing ramlat on cpu0 (Cortex-A8)",
		ns:      map[string]float64{"64k": 14.34, "65536k": 198.3}}
	z3735F = ramlat{file: "4r54", run: "sbc-bench v0.9.39, 'Insyde W8 CR50W8 / Atom(TM) Z3735F', 17 March 2023: " +
		"Atom Z3735F (Bay Trail-T, Silvermont cores) at its 1832 MHz burst clock (1829–1830 measured)",
		section: "Executing ramlat on cpu0",
		ns:      map[string]float64{"4k": 1.644, "64k": 7.653, "65536k": 136.0}}
)

// horowitzPoints are Horowitz's 45 nm energies of a 64-bit cache access, by cache size.
var horowitzPoints = []struct {
	bytes int64
	pj    float64
}{{8 << 10, 10}, {32 << 10, 20}, {1 << 20, 100}}

// horowitzPJ is the energy of one access to a cache of the given size by Horowitz's figures,
// linear in log2(size) between the two figures around it, to 0.1 pJ; ok is false outside
// 8 KB–1 MB, where the figures give no bracket and nothing is extrapolated.
func horowitzPJ(size int64) (pj float64, ok bool) {
	for i := 1; i < len(horowitzPoints); i++ {
		lo, hi := horowitzPoints[i-1], horowitzPoints[i]
		if size < lo.bytes || size > hi.bytes {
			continue
		}
		t := math.Log2(float64(size)/float64(lo.bytes)) / math.Log2(float64(hi.bytes)/float64(lo.bytes))
		return math.Round((lo.pj+t*(hi.pj-lo.pj))*10) / 10, true
	}
	return 0, false
}

// withHorowitz gives the level Horowitz's energy for its size, an estimate for any real cache;
// process names the chip's process node, which the note compares with Horowitz's 45 nm. A
// level outside the figures' range stays unknown, with a note saying so.
func (l Level) withHorowitz(process string) Level {
	pj, ok := horowitzPJ(l.SizeBytes)
	if !ok {
		return l.withEnergy(0, guess("Unknown: %s; they give nothing above 1 MB, this %s is %s, and no "+
			"per-access energy of it was found, so none is extrapolated.", horowitz, l.Name, bytesName(l.SizeBytes)))
	}
	nj := pj / 1000
	how := "the figure for this size"
	if !isHorowitzPoint(l.SizeBytes) {
		how = "interpolated linearly in log2(size) between the two figures around " + bytesName(l.SizeBytes)
	}
	return l.withEnergy(nj, guess("%s; %s: %s pJ = %s nJ per access. The chip is made in %s and the figure is for a "+
		"generic SRAM array of that size, not this cache, so it is an estimate.", horowitz, how, num(pj), num(nj), process))
}

func isHorowitzPoint(size int64) bool {
	for _, p := range horowitzPoints {
		if p.bytes == size {
			return true
		}
	}
	return false
}

// dataSideForFetches is the note of an instruction cache whose miss cost is the data side's.
func dataSideForFetches(data Note) Note {
	return guess("The data side's measured figure is taken for instruction fetches: %s", data.Text)
}
