package cost

// ImageKind says what an image is to its process: the layers of a vertical profile.
type ImageKind string

// The kinds of image, in the order the layer views show them.
const (
	ImageProgram ImageKind = "program" // the program the process runs
	ImageLibrary ImageKind = "library" // a shared library
	ImageLoader  ImageKind = "loader"  // the dynamic loader (ld-linux…, ld.so)
	ImageNoFile  ImageKind = "no file" // code no file holds: the sigreturn page, generated code
)

// ImageKinds lists the kinds in display order.
var ImageKinds = []ImageKind{ImageProgram, ImageLibrary, ImageLoader, ImageNoFile}

// Image is a file (or a region with no file) whose code a process ran.
type Image struct {
	PID  int
	Path string // as the emulator's host mapped it; for code with no file a label such as "[anon]"
	Name string // the last element of Path: what tables show
	Kind ImageKind
	Base uint64 // guest address of the file's offset 0 as its code was mapped (no file: the region's start)
	// Symbols says where its function names came from, for people: ".symtab", "debug file …",
	// ".dynsym", "unwind tables only", or why there are none.
	Symbols string
}

// Syscall is how often one thread made one system call, and the instructions it ran before
// them: for each call, those since the thread's previous call (or its start).
type Syscall struct {
	PID, TID int
	Number   int64
	Name     string // "read", "exit_group"; "syscall_N" when the guest's table lacks N
	Count    int64
	Insns    int64
}

// ImageSink is what a BlockSink also implements when it keeps images and system calls. A reader
// sends a process's images before the blocks in them; Block.Image names one by its Path.
type ImageSink interface {
	Image(img Image) error
	Syscall(s Syscall) error
}
