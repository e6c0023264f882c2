// Package model is the small core every run kind shares: what a run is (RunInfo, RunKind and
// the names runs may have), processes and threads, and the ratios the reports print. Each kind's
// own types and pure computations live in a sub-package named for its domain: cost (emulator
// blocks, instruction profiles, estimates), calls (method traces), heap (heap logs and dumps),
// samples (sampled stacks) and layers (the vertical layers of VARI that samples and heaps
// classify code into). The model packages import only the standard library, each other and
// internal/human (how sizes read), never the rest of the project, so every layer can depend
// on them.
package model
