// Package render is the one door to the charts of package chart: the window's chart panel,
// its Save buttons and `androprof chart` all draw through Render (or Image, for a window), so
// the same chart comes out as the same pixels, the same SVG and the same CSV everywhere. The
// charts themselves (package chart) are specifications that know how to paint themselves on
// go-chart's renderers; this package picks the output, checks the size and writes the numbers.
// It imports nothing of the project, so chart can build on it.
package render

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"
)

// Format is what Render writes.
type Format int

const (
	// PNG is for pasting into documents.
	PNG Format = iota
	// SVG scales, for papers.
	SVG
	// CSV is the numbers behind the chart, for a spreadsheet or a script.
	CSV
)

// FormatFor picks the format a file name asks for, so `--out x.svg` needs no second flag.
func FormatFor(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return PNG, nil
	case ".svg":
		return SVG, nil
	case ".csv":
		return CSV, nil
	}
	return 0, fmt.Errorf("%s: a chart is written as .png, .svg or .csv", path)
}

// Size limits: below the minimum nothing readable fits, above the maximum an image would
// take hundreds of megabytes.
const (
	MinWidth, MinHeight = 120, 80
	MaxSide             = 8000
)

// CheckSize says why a chart cannot be drawn at width×height, nil when it can.
func CheckSize(width, height int) error {
	if width < MinWidth || height < MinHeight || width > MaxSide || height > MaxSide {
		return fmt.Errorf("chart size %d×%d is outside %d×%d … %d×%d", width, height, MinWidth, MinHeight, MaxSide, MaxSide)
	}
	return nil
}

// Drawing is every chart of package chart: bars, lines, stacked columns, layers over time,
// flame graphs and timelines.
type Drawing interface {
	// Empty reports whether the chart would draw as "No data".
	Empty() bool
	// Paint writes the chart as PNG or SVG at width×height pixels. Call Render, which also
	// writes CSV; Paint is the chart's half of the bargain.
	Paint(w io.Writer, f Format, width, height int) error
	// Table is the chart's numbers as rows of text, a header first: what CSV writes. Numbers
	// are raw (full precision, base units), never rounded for reading; an unknown value is
	// "unknown", never 0.
	Table() [][]string
}

// Render writes d as f; PNG and SVG at width×height pixels (CSV has no size). A chart that
// cannot be drawn returns an error and may have written part of w.
func Render(w io.Writer, d Drawing, f Format, width, height int) error {
	switch f {
	case PNG, SVG:
		if err := CheckSize(width, height); err != nil {
			return err
		}
		return d.Paint(w, f, width, height)
	case CSV:
		cw := csv.NewWriter(w)
		if err := cw.WriteAll(d.Table()); err != nil {
			return fmt.Errorf("writing chart as CSV: %w", err)
		}
		return nil
	}
	return fmt.Errorf("unknown chart format %d", f)
}

// Image draws d for a window: the PNG renderer's image itself, without a PNG encode and
// decode in between.
func Image(d Drawing, width, height int) (*image.RGBA, error) {
	var c collector
	if err := Render(&c, d, PNG, width, height); err != nil {
		return nil, err
	}
	return c.Image()
}

// collector is where a PNG is painted for Image: a painter that has its image at hand hands
// it over with SetRGBA (go-chart's raster renderer and Timeline do), one that has only bytes
// writes them.
type collector struct {
	img *image.RGBA
	buf bytes.Buffer
}

// SetRGBA takes the painted image (go-chart's RGBACollector).
func (c *collector) SetRGBA(img *image.RGBA) { c.img = img }

// Write takes an encoded PNG.
func (c *collector) Write(p []byte) (int, error) { return c.buf.Write(p) }

// Image is the image painted, decoded when it came as bytes.
func (c *collector) Image() (*image.RGBA, error) {
	if c.img != nil {
		return c.img, nil
	}
	if c.buf.Len() == 0 {
		return nil, errors.New("chart painted no image")
	}
	img, err := png.Decode(&c.buf)
	if err != nil {
		return nil, err
	}
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba, nil
	}
	return nil, fmt.Errorf("chart painted a %T, not an RGBA image", img)
}
