// Package flame is the flame graph's domain, shared by every run kind with stacks: a tree of
// calling contexts, each as wide as the time or samples spent with it on the stack.
package flame

import layersmodel "androprof/model/layers"

// Node is a calling context of a flame graph: its frame, what was counted with it on the stack
// (Total) and with it as the leaf (Self), in the graph's unit (samples, or microseconds of one
// clock). Children are sorted by Name, then Origin, as flame graphs draw them.
type Node struct {
	Name     string            // the frame as a person reads it
	Origin   string            // where its code lives: the image (sampled runs) or the class's package (method runs)
	Layer    layersmodel.Layer // seed 004's layer of a sampled frame; 0 when the run has none
	Self     int64
	Total    int64
	Children []*Node
}
