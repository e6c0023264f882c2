package editor

import (
	"fmt"
	"testing"

	"androprof/internal/viewtest"
)

// The editor window at both sizes: at 900×600 its toolbar used to lose "Add instruction…" and
// "Analysis" past the window's edge.
func TestEditorLayoutReachable(t *testing.T) {
	_, v := newTestEditor(t)
	for _, size := range viewtest.LayoutSizes {
		v.Window.Resize(size)
		t.Run(fmt.Sprintf("%gx%g", size.Width, size.Height), func(t *testing.T) { viewtest.CheckReachable(t, v.Window) })
	}
}
