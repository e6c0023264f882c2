package chart

// The flame graph (Brendan Gregg's) of every run kind with stacks: sampled runs' frames
// coloured by seed 004's layer, method runs' by their package, in flamegraph.pl's warm hues.

import (
	"bytes"
	"cmp"
	"fmt"
	"hash/fnv"
	"image"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/golang/freetype/truetype"
	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
	"golang.org/x/image/font"

	"androprof/chart/render"
	"androprof/internal/human"
	"androprof/model/flame"
	layersmodel "androprof/model/layers"
)

// Flame is a flame graph (Brendan Gregg's) drawn as an icicle, the root on top: each frame a box
// as wide as the time or samples with it on the stack, its callees under it, so the widest
// columns are where the time goes.
// Sampled runs mix Java methods, the VM, native libraries and the kernel in one stack, each
// coloured by layer (seed 004's vertical view); method runs colour frames by package. A graph
// zoomed to a frame draws it full width, with its nearest callers (Path) greyed above it; a
// search (Find) lights up the frames it matches and dims the rest.
type Flame struct {
	Title string
	Root  *flame.Node   // drawn full width on the first row under Path
	Path  []*flame.Node // Root's callers, outermost first (the tree's root "all" first)
	Note  string        // a line under the graph, e.g. what the selection left out
	Unit  string        // what widths count: "" for samples, FlameCPU or FlameReal for µs
	Scope string        // what the whole graph counts ("thread 1 main"), for the shares said

	Search  string               // the regular expression searched for, as typed; "" for none
	Hits    map[*flame.Node]bool // the frames Search matches
	Matched int64                // the time under Hits, counted once where matches nest
	Marked  map[*flame.Node]bool // outlined: the frames of a method selected in another view

	diff *flameDiff // a differential graph's colours and numbers (FromDiff); nil for others
}

// The units of a method run's flame graph: microseconds of one clock.
const (
	FlameCPU  = "µs thread CPU"
	FlameReal = "µs real time"
)

// FromFlame titles a run's flame graph of samples; scope says which samples it counts.
func FromFlame(root *flame.Node, run, scope string) Flame {
	return Flame{Title: fmt.Sprintf("Flame graph — %s, %s", run, scope), Root: root, Scope: scope}
}

// FromMethodFlame titles a method run's flame graph, whose widths are µs of thread-CPU time or
// of real time (wall); scope says which threads it counts.
func FromMethodFlame(root *flame.Node, run, scope string, wall bool) Flame {
	unit := FlameCPU
	if wall {
		unit = FlameReal
	}
	return Flame{Title: fmt.Sprintf("Flame graph — %s, %s, %s", run, scope, unit), Root: root, Scope: scope, Unit: unit}
}

// Top is the root of the whole tree: the zoomed graph's outermost caller, or Root.
func (f Flame) Top() *flame.Node {
	if len(f.Path) > 0 {
		return f.Path[0]
	}
	return f.Root
}

// Zoom is the graph with n drawn full width and its callers above it; a node that is not in
// the tree leaves the graph as it is. Zooming to Top shows the whole graph again.
func (f Flame) Zoom(n *flame.Node) Flame {
	var path []*flame.Node
	var find func(at *flame.Node) bool
	find = func(at *flame.Node) bool {
		if at == n {
			return true
		}
		path = append(path, at)
		for _, c := range at.Children {
			if find(c) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if n == nil || f.Top() == nil || !find(f.Top()) {
		return f
	}
	f.Root, f.Path = n, path
	return f
}

// Empty reports whether the graph would draw as "No data": no sample in it.
func (f Flame) Empty() bool { return f.Root == nil || f.Root.Total <= 0 }

// flameBox is a frame as drawn: x0 ≤ x < x1, on row (0: the top one).
type flameBox struct {
	n      *flame.Node
	x0, x1 int
	row    int
	caller bool // one of Path, greyed
}

// flameLayout places a Flame's boxes; FrameAt uses it too, so clicks hit what is drawn.
type flameLayout struct {
	top, bottom, rowH int
	boxes             []flameBox
	hidden            int // frames on rows below the last one, not drawn
}

// Row heights: 18 px reads well; deep stacks get thinner rows, down to flameMinRow, which still
// carries a label, and the rows beyond are left out (zooming shows them). A zoomed graph draws
// only the nearest flameCallers callers: a frame deep in a recursion would otherwise spend the
// rows on its callers.
const (
	flameMaxRow   = 18
	flameMinRow   = 12
	flameLabelRow = 11 // rows thinner than this carry no labels
	flameCallers  = 4
)

func (f Flame) layout(w, h int) flameLayout {
	top := pad + legendH
	if f.Title != "" {
		top += 26
	}
	l := flameLayout{top: top, bottom: h - pad - 16} // 16: the note line
	left, right := pad, w-pad
	callers := f.Path[max(0, len(f.Path)-flameCallers):]
	for i, n := range callers {
		l.boxes = append(l.boxes, flameBox{n: n, x0: left, x1: right, row: i, caller: true})
	}
	scale := float64(right-left) / float64(f.Root.Total)
	var walk func(n *flame.Node, x float64, row int)
	walk = func(n *flame.Node, x float64, row int) {
		x0, x1 := int(math.Round(x)), int(math.Round(x+float64(n.Total)*scale))
		if x1-x0 < 1 {
			return // narrower than a pixel, with everything it called
		}
		l.boxes = append(l.boxes, flameBox{n: n, x0: x0, x1: x1, row: row})
		for _, c := range n.Children {
			walk(c, x, row+1)
			x += float64(c.Total) * scale
		}
	}
	walk(f.Root, float64(left), len(callers))
	depth := 0
	for _, b := range l.boxes {
		depth = max(depth, b.row+1)
	}
	avail := max(l.bottom-top, 1)
	l.rowH = max(flameMinRow, min(flameMaxRow, avail/max(depth, 1)))
	rows := avail / l.rowH
	kept := l.boxes[:0]
	for _, b := range l.boxes {
		if b.row < rows {
			kept = append(kept, b)
		} else {
			l.hidden++
		}
	}
	l.boxes = kept
	return l
}

// rect is where a box is drawn: a pixel's gap to its right neighbour and the row below.
func (l flameLayout) rect(b flameBox) image.Rectangle {
	y0 := l.top + b.row*l.rowH
	x1 := b.x1
	if x1-b.x0 > 2 {
		x1--
	}
	return image.Rect(b.x0, y0, x1, y0+l.rowH-1)
}

// Fills of frames that are not in their own colour: a zoomed graph's callers, and a search's
// matches (flamegraph.pl's magenta).
var (
	callerFill = drawing.Color{R: 224, G: 224, B: 224, A: 255}
	matchFill  = drawing.Color{R: 230, G: 0, B: 230, A: 255}
)

// fill is a frame's colour: grey for a zoomed graph's callers; while searching, magenta for a
// match and its own colour faded for the rest; else its own colour (frameColour).
func (f Flame) fill(b flameBox) drawing.Color {
	switch {
	case b.caller:
		return callerFill
	case f.Search == "":
		return f.own(b.n)
	case f.Hits[b.n]:
		return matchFill
	}
	return lighten(f.own(b.n), 75)
}

// own is a frame's colour in this graph: by its change in a diff, else frameColour.
func (f Flame) own(n *flame.Node) drawing.Color {
	if f.diff != nil {
		return f.diff.colour(n)
	}
	return frameColour(n)
}

// frameColour is a frame's own fill. A sampled frame takes its layer's hue, lighter or darker
// by its name's hash so neighbours of one layer stay apart (as flamegraph.pl varies its warm
// colours); a frame with no layer (a method run's) takes its package's warm hue.
func frameColour(n *flame.Node) drawing.Color {
	if n.Layer == 0 {
		return originColour(n.Origin, n.Name)
	}
	return lighten(layerColour(n.Layer), 25+int(hash32(n.Name)%30)) // 25–54%: dark text stays readable
}

// originColour is flamegraph.pl's "hot" palette, keyed so that every frame of one package has
// one hue in every graph: one of originHues steps from red to yellow, by the package's hash,
// steps far enough apart to tell packages apart in the legend. Frames of a package differ a
// little (by name) in red and blue, so neighbours stay apart. Frames with no package (the
// threads, the root) are keyed by name.
func originColour(origin, name string) drawing.Color {
	key := origin
	if key == "" {
		key = name
	}
	hue, shade := hash32(key), hash32(name)
	return drawing.Color{R: uint8(205 + shade%51), G: uint8(hue % originHues * (230 / (originHues - 1))), B: uint8(shade / 51 % 56), A: 255}
}

// originHues is how many hues packages take.
const originHues = 12

// lighten mixes c pct% of the way to white.
func lighten(c drawing.Color, pct int) drawing.Color {
	mix := func(v uint8) uint8 { return uint8(int(v) + (255-int(v))*pct/100) }
	return drawing.Color{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
}

func hash32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// Paint writes the graph as PNG or SVG (render.Drawing; draw it with render.Render). In SVG
// every frame carries its numbers as a <title>, which viewers show on hover.
func (f Flame) Paint(w io.Writer, format render.Format, width, height int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("drawing chart %q: %v", f.Title, p)
		}
	}()
	r, d, err := begin(f.Title, format, width, height)
	if err != nil {
		return err
	}
	if f.Empty() {
		d.noData(r)
		return r.Save(w)
	}
	l := f.layout(width, height)
	// Labels are measured with a face of their own: the SVG renderer makes a face per measure,
	// and a graph has hundreds of labels. go-chart's PNG text draws wider than the face
	// measures (a tenth and more), so the room is scaled by how much wider a sample draws.
	size := min(labelSize, float64(l.rowH)*0.6)
	p := &painter{font: d.font, faces: map[float64]font.Face{size: truetype.NewFace(d.font, &truetype.Options{Size: size, DPI: gochart.DefaultDPI})}}
	const sample = "Canvas.drawCircle(float, float, int) com/example/View.paint (F)V 0123456789"
	wider := max(1, float64(d.measure(r, sample, size))/float64(max(1, p.measure(sample, size))))
	svg := format == render.SVG
	for i, b := range l.boxes {
		if svg {
			r.Text(fmt.Sprintf(svgTitleMark, i), 0, 0)
		}
		rc := l.rect(b)
		d.fillRect(r, rc.Min.X, rc.Min.Y, rc.Max.X, rc.Max.Y, f.fill(b))
		if f.Marked[b.n] {
			d.outline(r, rc, textColour)
		}
		f.label(r, d, p, b, rc, l.rowH, size, wider)
		if svg {
			r.Text(svgEndMark, 0, 0)
		}
	}
	top := pad + 4
	if f.Title != "" {
		top += 26
	}
	d.swatches(r, f.legend(l.boxes), top)
	note := joinNote(f.Note, f.SearchText())
	if l.hidden > 0 {
		note = joinNote(note, human.Count(l.hidden, "frame", "frames")+" deeper than the rows shown are not drawn: click a frame to zoom")
	}
	if note != "" {
		d.text(r, d.fit(r, note, labelSize, width-2*pad), labelSize, mutedText, pad, height-pad, left)
	}
	if !svg {
		return r.Save(w)
	}
	var buf bytes.Buffer
	if err := r.Save(&buf); err != nil {
		return err
	}
	_, err = w.Write(f.titled(buf.Bytes(), l.boxes))
	return err
}

// outline draws a 2 px frame inside rc.
func (d *drawer) outline(r gochart.Renderer, rc image.Rectangle, c drawing.Color) {
	const w = 2
	d.fillRect(r, rc.Min.X, rc.Min.Y, rc.Max.X, rc.Min.Y+w, c)
	d.fillRect(r, rc.Min.X, rc.Max.Y-w, rc.Max.X, rc.Max.Y, c)
	d.fillRect(r, rc.Min.X, rc.Min.Y, rc.Min.X+w, rc.Max.Y, c)
	d.fillRect(r, rc.Max.X-w, rc.Min.Y, rc.Max.X, rc.Max.Y, c)
}

// label writes a frame's name in its box where it fits (wider: how much wider the renderer
// draws text than p measures it); a label cut to a letter or two says nothing, so such boxes
// stay bare.
func (f Flame) label(r gochart.Renderer, d *drawer, p *painter, b flameBox, rc image.Rectangle, rowH int, size, wider float64) {
	if rowH < flameLabelRow || rc.Dx() < 24 {
		return
	}
	label := p.fit(b.n.Name, size, int(float64(rc.Dx()-6)/wider))
	if label != b.n.Name && utf8.RuneCountInString(label) < 4 {
		return
	}
	c := textColour
	if f.Search != "" && !f.Hits[b.n] && !b.caller {
		c = mutedText
	}
	d.text(r, label, size, c, rc.Min.X+3, rc.Min.Y+rowH/2+int(size*gochart.DefaultDPI/72)/2-1, left)
}

// legendEntry is a swatch and its name above the graph.
type legendEntry struct {
	name   string
	colour drawing.Color
}

// flameLegendMax is the most packages a method run's legend names: the ones with the most self
// time drawn; the rest are in the hover text.
const flameLegendMax = 6

// legend names the layers drawn (sampled runs) or the packages with the most self time drawn
// (method runs), each with its colour.
func (f Flame) legend(boxes []flameBox) []legendEntry {
	if f.diff != nil {
		return f.diff.legend()
	}
	present := map[layersmodel.Layer]bool{}
	self := map[string]int64{}
	for _, b := range boxes {
		if b.caller {
			continue
		}
		present[b.n.Layer] = true
		if b.n.Layer == 0 && b.n.Origin != "" {
			self[b.n.Origin] += b.n.Self
		}
	}
	var out []legendEntry
	for _, ly := range layersmodel.Layers {
		if present[ly] {
			out = append(out, legendEntry{ly.String(), bandColour(layerColour(ly))})
		}
	}
	if len(out) > 0 {
		return out
	}
	origins := slices.SortedFunc(maps.Keys(self), func(a, b string) int { return cmp.Or(cmp.Compare(self[b], self[a]), strings.Compare(a, b)) })
	for _, o := range origins[:min(len(origins), flameLegendMax)] {
		out = append(out, legendEntry{o, originColour(o, "")})
	}
	return out
}

// swatches draws entries on one line at y, centred, each after a swatch of its colour; entries
// past the width are left out.
func (d *drawer) swatches(r gochart.Renderer, entries []legendEntry, y int) {
	const sw, space = 10, 16
	total := 0
	n := 0
	for _, e := range entries {
		wd := sw + 6 + d.measure(r, e.name, labelSize) + space
		if total+wd > d.w-2*pad {
			break
		}
		total += wd
		n++
	}
	x := max(pad, (d.w-total+space)/2)
	for _, e := range entries[:n] {
		d.fillRect(r, x, y, x+sw, y+sw, e.colour)
		x += sw + 6
		d.text(r, e.name, labelSize, textColour, x, y+sw-1, left)
		x += d.measure(r, e.name, labelSize) + space
	}
}

// FrameAt is the frame drawn at pixel (x, y) of a width×height graph, nil for none, so a
// click can zoom to it (or, on a greyed caller, back out to it).
func (f Flame) FrameAt(width, height, x, y int) *flame.Node {
	if f.Empty() || checkSize(width, height) != nil {
		return nil
	}
	l := f.layout(width, height)
	pt := image.Pt(x, y)
	for _, b := range l.boxes {
		rc := l.rect(b)
		rc.Max.X = max(rc.Max.X, b.x1) // the gap belongs to the box on its left
		if pt.In(rc) {
			return b.n
		}
	}
	return nil
}

// FrameRect is where frame n is drawn in a width×height graph; ok is false when it is not
// drawn (narrower than a pixel, deeper than the rows, or not in the graph).
func (f Flame) FrameRect(width, height int, n *flame.Node) (r image.Rectangle, ok bool) {
	if f.Empty() || checkSize(width, height) != nil {
		return r, false
	}
	l := f.layout(width, height)
	for _, b := range l.boxes {
		if b.n == n {
			return l.rect(b), true
		}
	}
	return r, false
}
