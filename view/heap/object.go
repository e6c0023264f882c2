package heap

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/internal/human"
	heapmodel "androprof/model/heap"
	"androprof/view/ui"
)

// objectTab is the object view: one reachable object with its fields and their values,
// what refers to it, its dominator and the path from a GC root to it, every other object
// named there a tap away; Back and Forward (Alt+Left, Alt+Right) walk the objects visited.
type objectTab struct {
	Back, Forward *widget.Button
	Title         *widget.Label  // class, id, kind, heap, sizes
	Note          *widget.Label  // what could not be read, what is cut
	Dominator     *widget.Button // opens the immediate dominator
	Text          *widget.Label  // a String's, char[]'s or byte[]'s text
	Image         *canvas.Image  // a Bitmap's pixels
	Fields        *ui.SortTable[heapmodel.FieldValue]
	Referrers     *ui.SortTable[heapmodel.Referrer]
	PathTo        *widget.Label
	Path          *ui.SortTable[heapmodel.DumpObject]

	d       *DumpView
	visited []int32 // the objects opened, in order; at is the one shown
	at      int
	seq     int32 // shown, -1 for none
	idom    int32
	gen     int
	text    fyne.CanvasObject // Text's scroll, hidden without text
	content fyne.CanvasObject
}

// chooseObjectPrompt is what the object view says before an object is opened.
const chooseObjectPrompt = "Open an object from Instances, Retained or Leaks: its fields, referrers and path from a GC root show here."

func newObjectTab(d *DumpView) *objectTab {
	t := &objectTab{d: d, seq: -1, idom: -1}
	win := d.host.Window()
	t.Back = widget.NewButtonWithIcon("Back", theme.NavigateBackIcon(), func() { t.step(-1) })
	t.Forward = widget.NewButtonWithIcon("Forward", theme.NavigateNextIcon(), func() { t.step(1) })
	t.Title = widget.NewLabel(chooseObjectPrompt)
	t.Title.Wrapping = fyne.TextWrapWord
	t.Title.TextStyle.Bold = true
	t.Note = widget.NewLabel("")
	t.Note.Wrapping = fyne.TextWrapWord
	t.Note.Importance = widget.WarningImportance
	t.Note.Hide()
	t.Dominator = widget.NewButton("", func() {
		if t.idom >= 0 {
			t.open(t.idom)
		}
	})
	t.Dominator.Alignment = widget.ButtonAlignLeading
	t.Text = widget.NewLabel("")
	t.Text.Wrapping = fyne.TextWrapBreak
	scroll := container.NewVScroll(t.Text)
	scroll.SetMinSize(fyne.NewSize(0, 3*t.Text.MinSize().Height))
	t.text = scroll
	t.Image = canvas.NewImageFromImage(nil)
	t.Image.FillMode = canvas.ImageFillContain
	t.Image.ScaleMode = canvas.ImageScalePixels
	t.Fields = ui.NewSortTable(win, "dump-object-fields", fieldColumns(), func(f heapmodel.FieldValue) {
		if f.Ref >= 0 {
			t.open(f.Ref)
		}
	})
	t.Referrers = ui.NewSortTable(win, "dump-object-referrers", referrerColumns(), func(r heapmodel.Referrer) { t.open(r.Seq) })
	t.PathTo = widget.NewLabel("")
	t.PathTo.Truncation = fyne.TextTruncateEllipsis
	t.Path = ui.NewSortTable(win, "dump-object-path", objectPathColumns(), func(o heapmodel.DumpObject) { t.open(o.Seq) })
	t.showNothing()

	left := container.NewBorder(container.NewVBox(t.Dominator, t.text, t.Image), nil, nil, nil, t.Fields.Content())
	referrers := container.NewBorder(widget.NewLabel("Referrers: the objects whose references hold it"), nil, nil, nil, t.Referrers.Content())
	path := container.NewBorder(t.PathTo, nil, nil, nil, t.Path.Content())
	right := container.NewVSplit(referrers, path)
	split := container.NewHSplit(left, right)
	split.Offset = 0.48
	top := container.NewBorder(nil, nil, container.NewHBox(t.Back, t.Forward), nil, t.Title)
	t.content = container.NewBorder(container.NewVBox(top, t.Note), nil, nil, nil, split)
	return t
}

// fieldColumns are a field's (or array element's): its name, type and value.
func fieldColumns() []ui.Column[heapmodel.FieldValue] {
	type row = heapmodel.FieldValue
	return []ui.Column[row]{
		ui.TextCol("Field", 100, func(f row) string { return f.Name }),
		ui.TextCol("Type", 120, func(f row) string { return f.Type }),
		ui.TextCol("Value", 330, fieldValue),
	}
}

// fieldValue is a value as the table shows it: a reference the view can open says so.
func fieldValue(f heapmodel.FieldValue) string {
	switch {
	case f.Ref >= 0:
		return f.Value + " (open)"
	case f.RefID != 0:
		return f.Value + " (unreachable)"
	}
	return f.Value
}

// referrerColumns are a referrer's: the object (its class and id), the fields that hold the
// object shown, and what it retains.
func referrerColumns() []ui.Column[heapmodel.Referrer] {
	type row = heapmodel.Referrer
	return []ui.Column[row]{
		ui.TextCol("Object", 260, func(r row) string { return objectName(r.DumpObject) }),
		ui.TextCol("Through", 80, func(r row) string { return strings.Join(r.Fields, ", ") }),
		ui.IntCol("Retained", 80, func(r row) int64 { return int64(r.Retained) }),
	}
}

// objectPathColumns are a path's as the object view shows it, narrower than Retained's:
// the object (its class and id; the key column, which gives way when the pane is narrow), the
// reference into it and what it retains.
func objectPathColumns() []ui.Column[heapmodel.DumpObject] {
	type row = heapmodel.DumpObject
	return []ui.Column[row]{
		ui.TextCol("Object", 260, objectName),
		ui.TextCol("Reference", 110, func(o row) string { return o.Field }),
		ui.IntCol("Retained", 80, func(o row) int64 { return int64(o.Retained) }),
	}
}

// objectName names an object as the object view's tables do: its class, then its id.
func objectName(o heapmodel.DumpObject) string { return o.ClassOf + " " + objectID(o.ID) }

// share writes part of whole as a percentage a person reads: "under 0.1%" rather than 0.0%.
func share(part, whole uint64) string {
	p := percent(part, whole)
	if p > 0 && p < 0.1 {
		return "under 0.1%"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// forget clears the view and its history for another run.
func (t *objectTab) forget() {
	t.gen++
	t.visited, t.at = nil, 0
	t.showNothing()
}

// showNothing empties every part of the view.
func (t *objectTab) showNothing() {
	t.seq, t.idom = -1, -1
	t.Title.SetText(chooseObjectPrompt)
	t.setNote("")
	t.Dominator.SetText("Dominator: none yet")
	t.Dominator.Disable()
	t.text.Hide()
	t.Image.Image = nil
	t.Image.Hide()
	t.Fields.Set(nil)
	t.Referrers.Set(nil)
	t.PathTo.SetText("")
	t.Path.Set(nil)
	t.steps()
}

// open shows object seq and makes it the last object visited (the ones after are dropped,
// as a browser drops its forward pages).
func (t *objectTab) open(seq int32) {
	if seq < 0 {
		return
	}
	if t.at < len(t.visited) && t.visited[t.at] == seq && t.seq == seq {
		return
	}
	if len(t.visited) > 0 {
		t.visited = t.visited[:t.at+1]
	}
	t.visited = append(t.visited, seq)
	t.at = len(t.visited) - 1
	t.show(seq)
}

// step goes back (-1) or forward (1) through the objects visited.
func (t *objectTab) step(by int) {
	i := t.at + by
	if i < 0 || i >= len(t.visited) {
		return
	}
	t.at = i
	t.show(t.visited[i])
}

// steps enables Back and Forward where there is somewhere to go.
func (t *objectTab) steps() {
	enable(t.Back, t.at > 0 && len(t.visited) > 0)
	enable(t.Forward, t.at+1 < len(t.visited))
}

func enable(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

// objectLoad is what the view reads of one object in the background.
type objectLoad struct {
	obj       heapmodel.DumpObject // from the retention: sizes, dominator, path
	heap      string
	reachable uint64
	idom      heapmodel.DumpObject // valid when obj.Idom >= 0
	path      []heapmodel.DumpObject
	detail    heapmodel.ObjectDetail
	detailErr error
	refs      []heapmodel.Referrer
	refsErr   error
}

// show reads object seq in the background and shows it: what the retention knows at once
// (sizes, dominator, path), its fields and referrers as the object store gives them.
func (t *objectTab) show(seq int32) {
	d := t.d
	t.gen++
	t.steps()
	gen, run, a, ctx := t.gen, d.run, d.a, d.host.Context()
	d.host.Background().Run(func() func() {
		r, err := a.Retention(ctx, run)
		if err == nil && int(seq) >= r.Objects.Len() {
			err = fmt.Errorf("%s has no reachable object %d", run, seq)
		}
		if err != nil {
			return func() {
				if gen == t.gen {
					t.showNothing()
					t.setNote(ui.ProblemText("open object", fmt.Sprint(seq), err))
				}
			}
		}
		l := objectLoad{obj: r.Object(seq), heap: controller.ObjectHeap(r, seq), reachable: r.Reachable, path: r.Path(seq)}
		if l.obj.Idom >= 0 {
			l.idom = r.Object(l.obj.Idom)
		}
		l.detail, l.detailErr = a.Object(ctx, run, seq)
		l.refs, l.refsErr = a.Referrers(ctx, run, seq)
		if ctx.Err() != nil {
			return nil
		}
		return func() {
			if gen == t.gen {
				t.showLoaded(l)
			}
		}
	})
}

// showLoaded puts an object read in every part of the view.
func (t *objectTab) showLoaded(l objectLoad) {
	o := l.obj
	t.seq, t.idom = o.Seq, o.Idom
	kind := "object"
	if l.detailErr == nil {
		kind = l.detail.Kind.String()
		if l.detail.Heap != "" {
			l.heap = l.detail.Heap
		}
	}
	t.Title.SetText(fmt.Sprintf("%s %s · %s · heap %s · shallow %s · retains %s (%s of the reachable)", o.ClassOf, objectID(o.ID), kind,
		l.heap, human.Bytes(o.Shallow), human.Bytes(o.Retained), share(o.Retained, l.reachable)))
	if o.Idom >= 0 {
		t.Dominator.SetText(fmt.Sprintf("Dominator: %s %s, retaining %s (open)", l.idom.ClassOf, objectID(l.idom.ID), human.Bytes(l.idom.Retained)))
		t.Dominator.Enable()
	} else {
		t.Dominator.SetText("Dominator: none; no single object keeps it alive (a GC root holds it, or several paths do)")
		t.Dominator.Disable()
	}
	chain := l.path
	t.PathTo.SetText(fmt.Sprintf("Path from a GC root (%s): %s", chain[0].Field, human.Count(len(chain)-1, "reference", "references")))
	t.Path.Set(chain)

	var notes []string
	if l.detailErr != nil {
		notes = append(notes, ui.ProblemText("read the fields of", objectID(o.ID), l.detailErr))
		t.Fields.Set(nil)
		t.text.Hide()
		t.Image.Hide()
	} else {
		notes = append(notes, t.showDetail(l.detail)...)
	}
	if l.refsErr != nil {
		notes = append(notes, ui.ProblemText("list the referrers of", objectID(o.ID), l.refsErr))
		l.refs = nil
	}
	t.Referrers.Set(l.refs)
	t.setNote(strings.Join(notes, " "))
	t.steps()
	relayout(t.content)
}

// showDetail shows an object's fields, elements, text and pixels; it returns what it had to
// leave out, in words.
func (t *objectTab) showDetail(x heapmodel.ObjectDetail) []string {
	var notes []string
	rows := append(append([]heapmodel.FieldValue(nil), x.Fields...), x.Elements...)
	t.Fields.Set(rows)
	switch {
	case x.Kind == heapmodel.KindObjectArray || x.Kind == heapmodel.KindPrimitiveArray:
		t.Fields.Count.SetText(fmt.Sprintf("length %s, %s shown", human.Grouped(int64(x.Length)), human.Grouped(int64(len(x.Elements)))))
		if len(x.Elements) < x.Length {
			notes = append(notes, fmt.Sprintf("The first %s of %s elements are shown.", human.Grouped(int64(len(x.Elements))), human.Grouped(int64(x.Length))))
		}
	case x.Kind == heapmodel.KindClassObject:
		t.Fields.Count.SetText(human.Count(len(x.Fields), "static field", "static fields"))
	default:
		t.Fields.Count.SetText(human.Count(len(x.Fields), "field", "fields"))
	}
	if x.TextKnown {
		t.Text.SetText("Text: " + quoteText(x.Text))
		t.text.Show()
		if x.TextCut {
			notes = append(notes, fmt.Sprintf("The text is cut at %s characters.", human.Grouped(heapmodel.TextShown)))
		}
	} else {
		t.text.Hide()
	}
	t.Image.Hide()
	if x.Image != nil {
		if img := bitmapImage(x.Image); img != nil {
			t.Image.Image = img
			t.Image.SetMinSize(imageSize(x.Image.Width, x.Image.Height))
			t.Image.Show()
			t.Image.Refresh()
		} else {
			notes = append(notes, fmt.Sprintf("The bitmap's pixels (%d×%d, %s) are in a layout the view does not draw.", x.Image.Width, x.Image.Height, x.Image.Format))
		}
	}
	return notes
}

// quoteText quotes a text as Java would write it, its line breaks shown as \n.
func quoteText(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n", "\r", "\\r", "\t", "\\t")
	return "\"" + r.Replace(s) + "\""
}

// imageSize is how large the view draws a bitmap: its own size, at most 160 pixels high.
func imageSize(w, h int) fyne.Size {
	const most = 160
	if h > most {
		w, h = max(1, w*most/h), most
	}
	return fyne.NewSize(float32(w), float32(h))
}

// setNote shows a note, or hides it when there is none.
func (t *objectTab) setNote(s string) {
	t.Note.SetText(s)
	if s == "" {
		t.Note.Hide()
	} else {
		t.Note.Show()
	}
}
