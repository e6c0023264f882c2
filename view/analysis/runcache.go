package analysis

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"androprof/controller"
	"androprof/model/cost"
	"androprof/view/ui"
)

// geometryExample is the geometry entry's hint when the profile has none to prefill it with.
const geometryExample = "l1i=32k:4:64,l1d=32k:4:64,l2=512k:8:64"

// cacheChoice is the Run program dialog's "Simulate caches": a check, the geometry (prefilled
// with the profile's) and, under it, what is wrong with the geometry as typed. It is a
// fyne.Validatable, so the form disables Run while the geometry is refused; it has no Validator
// field, so the form adds no second copy of the message.
type cacheChoice struct {
	widget.BaseWidget
	Simulate *widget.Check
	Geometry *ui.Entry
	Message  *widget.Label // why the geometry is refused, or where it came from

	profile      string // the profile whose geometry prefilled the entry ("" when none did)
	prefill      string
	err          error
	onValidation func(error)
	box          fyne.CanvasObject
}

// newCacheChoice offers to simulate caches, with p's hierarchy prefilled (p may be nil).
func newCacheChoice(p *cost.Profile) *cacheChoice {
	c := &cacheChoice{Geometry: ui.NewEntry(), Message: widget.NewLabel("")}
	if p != nil && !p.Memory.IsZero() {
		c.profile, c.prefill = p.Name, p.Memory.Geometry().String()
	}
	c.Geometry.SetText(c.prefill)
	c.Geometry.SetPlaceHolder(geometryExample)
	c.Geometry.OnChanged = func(string) { c.check() }
	c.Geometry.Disable()
	c.Message.Wrapping = fyne.TextWrapWord
	c.Simulate = widget.NewCheck("Simulate caches (misses per block; the run takes longer)", func(on bool) {
		ui.Enable(c.Geometry, on)
		c.check()
	})
	c.box = container.NewVBox(c.Simulate, c.Geometry, c.Message)
	c.ExtendBaseWidget(c)
	c.check()
	return c
}

func (c *cacheChoice) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(c.box) }

// Validate is the geometry's error while Simulate caches is checked.
func (c *cacheChoice) Validate() error { return c.err }

// SetOnValidationChanged is how the form hears that Run may be pressed again, or not.
func (c *cacheChoice) SetOnValidationChanged(f func(error)) { c.onValidation = f }

// check reads the geometry as typed and says what is wrong with it, or where it comes from.
func (c *cacheChoice) check() {
	c.err = nil
	msg := ""
	switch {
	case !c.Simulate.Checked:
	case c.profile == "" && c.Geometry.Text == "":
		msg = "The profile has no memory hierarchy: type a geometry, e.g. " + geometryExample + "."
		_, c.err = cost.ParseCacheGeometry("")
	default:
		if _, c.err = cost.ParseCacheGeometry(c.Geometry.Text); c.err != nil {
			msg = c.err.Error()
		} else if _, src := c.choice(); src != "--cache" {
			msg = "The hierarchy of " + c.profile + "."
		} else {
			msg = "Typed by hand: the run records it as --cache."
		}
	}
	c.Message.Importance = widget.MediumImportance
	if c.err != nil {
		c.Message.Importance = widget.DangerImportance
	}
	c.Message.SetText(msg) // shown even when empty: the dialog keeps its size as the message comes and goes
	if c.onValidation != nil {
		c.onValidation(c.err)
	}
}

// choice is the geometry to simulate (nil: counts only) and where it came from, as the run
// stores it: "profile NAME" when it is the profile's as prefilled, "--cache" when typed.
func (c *cacheChoice) choice() (*cost.CacheGeometry, string) {
	if !c.Simulate.Checked {
		return nil, ""
	}
	g, err := cost.ParseCacheGeometry(c.Geometry.Text)
	if err != nil {
		return nil, ""
	}
	if c.profile != "" && g.String() == c.prefill {
		return &g, "profile " + c.profile
	}
	return &g, "--cache"
}

// withCache is imp made to simulate g during a program run (nil: counts only). The real
// importer takes it as options; a test's importer, which only imports, runs as it is.
func withCache(imp RunImporter, g *cost.CacheGeometry, source string) RunImporter {
	if im, ok := imp.(controller.Importer); ok {
		im.Cache, im.CacheSource = g, source
		return im
	}
	return imp
}
