package chart

// The flame graph (Brendan Gregg's), of sampled runs today: frames coloured by seed 004's layer.

import (
	"fmt"
	"hash/fnv"
	"image"
	"io"
	"math"
	"unicode/utf8"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
	"golang.org/x/image/font"

	"androprof/chart/render"
	"androprof/internal/human"
	"androprof/model/flame"
	layersmodel "androprof/model/layers"
)

// Flame is a flame graph of sampled stacks (Brendan Gregg's): each frame a box as wide as the
// samples with it on their stack, its callees on top of it, so the widest towers are where the
// time goes. Java methods, the VM, native libraries and the kernel are in the same stacks, each
// coloured by layer: seed 004's vertical view of one program. A graph zoomed to a frame draws
// it full width, with its nearest callers (Path) greyed below it.
type Flame struct {
	Title string
	Root  *flame.Node   // drawn full width on the lowest row above Path
	Path  []*flame.Node // Root's callers, outermost first (the tree's root "all" first)
	Note  string        // a line under the graph, e.g. what the selection left out
}

// FromFlame titles a run's flame graph; scope says which samples it counts.
func FromFlame(root *flame.Node, run, scope string) Flame {
	return Flame{Title: fmt.Sprintf("Flame graph — %s, %s", run, scope), Root: root}
}

// Top is the root of the whole tree: the zoomed graph's outermost caller, or Root.
func (f Flame) Top() *flame.Node {
	if len(f.Path) > 0 {
		return f.Path[0]
	}
	return f.Root
}

// Zoom is the graph with n drawn full width and its callers below it; a node that is not in
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

// flameBox is a frame as drawn: x0 ≤ x < x1, on row (0: the bottom one).
type flameBox struct {
	n      *flame.Node
	x0, x1 int
	row    int
	caller bool // one of Path, greyed
}

// flameLayout places a Flame's boxes; FrameAt uses it too, so clicks hit what is drawn.
type flameLayout struct {
	bottom, rowH int
	boxes        []flameBox
	hidden       int // frames on rows above the top one, not drawn
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
	l := flameLayout{bottom: h - pad - 16} // 16: the note line
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

// rect is where a box is drawn: a pixel's gap to its right neighbour and the row above.
func (l flameLayout) rect(b flameBox) image.Rectangle {
	y1 := l.bottom - b.row*l.rowH
	x1 := b.x1
	if x1-b.x0 > 2 {
		x1--
	}
	return image.Rect(b.x0, y1-l.rowH+1, x1, y1)
}

// flameColour is a frame's fill: its layer's hue, lighter or darker by its name's hash so
// neighbours of one layer stay apart (as flamegraph.pl varies its warm colours); callers of a
// zoomed graph are grey.
func flameColour(b flameBox) drawing.Color {
	if b.caller || b.n.Layer == 0 {
		return drawing.Color{R: 224, G: 224, B: 224, A: 255}
	}
	c := layerColour(b.n.Layer)
	h := fnv.New32a()
	h.Write([]byte(b.n.Name))
	pct := 25 + int(h.Sum32()%30) // 25–54% of the way to white: dark text stays readable
	mix := func(v uint8) uint8 { return uint8(int(v) + (255-int(v))*pct/100) }
	return drawing.Color{R: mix(c.R), G: mix(c.G), B: mix(c.B), A: 255}
}

// Paint writes the graph as PNG or SVG (render.Drawing; draw it with render.Render).
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
	// and a graph has hundreds of labels.
	p := &painter{font: d.font, faces: map[float64]font.Face{}}
	size := min(labelSize, float64(l.rowH)*0.6)
	present := map[layersmodel.Layer]bool{}
	for _, b := range l.boxes {
		rc := l.rect(b)
		d.fillRect(r, rc.Min.X, rc.Min.Y, rc.Max.X, rc.Max.Y, flameColour(b))
		if !b.caller {
			present[b.n.Layer] = true
		}
		if l.rowH < flameLabelRow || rc.Dx() < 24 {
			continue
		}
		// A label cut to a letter or two says nothing: such boxes stay bare.
		label := p.fit(b.n.Name, size, rc.Dx()-6)
		if label != b.n.Name && utf8.RuneCountInString(label) < 4 {
			continue
		}
		d.text(r, label, size, textColour, rc.Min.X+3, rc.Min.Y+l.rowH/2+int(size*gochart.DefaultDPI/72)/2-1, left)
	}
	var layers []layersmodel.Layer
	for _, ly := range layersmodel.Layers {
		if present[ly] {
			layers = append(layers, ly)
		}
	}
	top := pad + 4
	if f.Title != "" {
		top += 26
	}
	d.layerLegend(r, layers, top)
	note := f.Note
	if l.hidden > 0 {
		note = joinNote(note, human.Count(l.hidden, "frame", "frames")+" deeper than the rows shown are not drawn: click a frame to zoom")
	}
	if note != "" {
		d.text(r, d.fit(r, note, labelSize, width-2*pad), labelSize, mutedText, pad, height-pad, left)
	}
	return r.Save(w)
}

// layerLegend names layers on one line at y, centred, each after a swatch of its colour as
// the flame graph fills it.
func (d *drawer) layerLegend(r gochart.Renderer, layers []layersmodel.Layer, y int) {
	const sw, space = 10, 16
	total := 0
	for _, l := range layers {
		total += sw + 6 + d.measure(r, l.String(), labelSize) + space
	}
	x := max(pad, (d.w-total+space)/2)
	for _, l := range layers {
		c := layerColour(l)
		d.fillRect(r, x, y, x+sw, y+sw, bandColour(c))
		x += sw + 6
		d.text(r, l.String(), labelSize, textColour, x, y+sw-1, left)
		x += d.measure(r, l.String(), labelSize) + space
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
