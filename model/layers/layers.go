package layers

// Sampled runs (seed 004, VARI): a system profiler's samples with their call stacks, each frame
// named by the image its code lies in and a symbol, and classified into the layers of a
// vertical profile: the application's Java methods, Java library methods, the VM, native
// libraries and the kernel.

// Layer is where a sampled frame's code belongs.
type Layer uint8

// The layers, in the order the views stack them (application on top of the kernel).
const (
	LayerApp     Layer = iota + 1 // the application's own Java methods
	LayerJavaLib                  // Java library methods: java.*, jdk.*, sun.*, android.* …
	LayerVM                       // the VM: libjvm.so / libart.so and the code it generates (interpreter, stubs)
	LayerNative                   // native libraries and programs: libc, libz, JNI libraries
	LayerKernel                   // the kernel
	LayerUnknown                  // neither image nor symbol says
)

// Layers lists every layer in display order.
var Layers = []Layer{LayerApp, LayerJavaLib, LayerVM, LayerNative, LayerKernel, LayerUnknown}

// String is the layer's name in tables, charts, JSON and command lines.
func (l Layer) String() string {
	switch l {
	case LayerApp:
		return "application"
	case LayerJavaLib:
		return "java library"
	case LayerVM:
		return "vm"
	case LayerNative:
		return "native"
	case LayerKernel:
		return "kernel"
	}
	return "unknown"
}
