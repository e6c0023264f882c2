package bbprofile

import (
	"debug/elf"
	"fmt"
	"os"
	"path"
	"strings"

	"androprof/emulator/elfsym"
	"androprof/emulator/syscalls"
	"androprof/model/cost"
)

// imageNames gives each block of a streaming profile its image and function name, and each
// system call its name (docs/bbprofile-format.md, "Images and names"):
//   - a block whose line carries a symbol keeps it (QEMU's own, or one a writer resolved
//     where the files were);
//   - otherwise its image's ELF file, read on this machine, names it (elfsym: .symtab, a debug
//     file, .dynsym, then the unwind tables' function starts as IMAGE+0xSTART);
//   - otherwise it is IMAGE+0xOFFSET of the block itself.
type imageNames struct {
	debugDirs []string
	files     map[string]*imageFile // by path, for every process of the profile (forks share them)

	proc   *Process
	interp string                   // last element of the program's PT_INTERP
	byID   map[uint64]*sectionImage // the open process's image lines
	sent   map[string]bool          // paths of the open process's images already sent
}

type imageFile struct {
	syms *elfsym.File // nil when the file cannot be read here
	why  string       // where names come from, or why there are none
}

type sectionImage struct {
	cost.Image
	base uint64
	file *imageFile
}

func newImageNames(debugDirs []string) *imageNames {
	return &imageNames{debugDirs: debugDirs, files: map[string]*imageFile{}}
}

// process starts a process section.
func (n *imageNames) process(p *Process) {
	n.proc, n.interp = p, ""
	if interp := elfsym.Interp(p.Path); interp != "" {
		n.interp = path.Base(interp)
	}
	n.byID, n.sent = map[uint64]*sectionImage{}, map[string]bool{}
}

// image takes an image line; it returns the model's image when its path is new in the process.
func (n *imageNames) image(im *Image) (cost.Image, bool) {
	si := &sectionImage{Image: cost.Image{PID: im.PID, Path: im.Path, Base: im.Base}, base: im.Base}
	if strings.HasPrefix(im.Path, "/") {
		si.Name = path.Base(strings.TrimSuffix(im.Path, " (deleted)"))
		si.Kind = n.kindOf(im.Path, si.Name)
		si.file = n.file(im.Path)
		si.Symbols = si.file.why
	} else {
		si.Name, si.Kind, si.Symbols = im.Path, cost.ImageNoFile, "no file"
	}
	n.byID[im.ID] = si
	if n.sent[im.Path] {
		return cost.Image{}, false
	}
	n.sent[im.Path] = true
	return si.Image, true
}

// kindOf tells the program and the dynamic loader from the libraries.
func (n *imageNames) kindOf(p, name string) cost.ImageKind {
	switch {
	case sameFile(p, n.proc.Path) || name == n.proc.Name:
		return cost.ImageProgram
	case name == n.interp || strings.HasPrefix(name, "ld-linux") || strings.HasPrefix(name, "ld.so") ||
		(strings.HasPrefix(name, "ld-") && strings.Contains(name, ".so")):
		return cost.ImageLoader
	}
	return cost.ImageLibrary
}

func (n *imageNames) file(p string) *imageFile {
	key := n.proc.Arch + "\x00" + p
	if f, ok := n.files[key]; ok {
		return f
	}
	f := &imageFile{}
	syms, err := elfsym.Open(p, n.debugDirs...)
	// A profile imported on another machine may name a path that here holds the host's own
	// program (/bin/bzip2): a file of another machine is not the guest's.
	if want, ok := machines[n.proc.Arch]; err == nil && ok && syms.Machine() != want {
		err = fmt.Errorf("%s here is a %s file, not %s", p, syms.Machine(), n.proc.Arch)
	}
	if err != nil {
		f.why = "as the profile names them (" + err.Error() + ")"
	} else {
		f.syms, f.why = syms, syms.Source()
	}
	n.files[key] = f
	return f
}

// machines are the ELF machines of QEMU's targets.
var machines = map[string]elf.Machine{"arm": elf.EM_ARM, "armeb": elf.EM_ARM, "mips": elf.EM_MIPS,
	"mipsel": elf.EM_MIPS, "aarch64": elf.EM_AARCH64, "i386": elf.EM_386, "x86_64": elf.EM_X86_64}

// name sets a block's image and, when its line carried no symbol, its function name.
func (n *imageNames) name(b *cost.Block, imageID int64) {
	if imageID == NoImage || n.byID == nil {
		return
	}
	si := n.byID[uint64(imageID)]
	b.Image = si.Path
	if b.Symbol != "" {
		return
	}
	off := b.PC - si.base
	if si.file != nil && si.file.syms != nil {
		fn := si.file.syms.Lookup(off)
		if fn.Name != "" {
			b.Symbol = fn.Name
			return
		}
		b.Symbol = fmt.Sprintf("%s+0x%x", si.Name, fn.Start)
		return
	}
	b.Symbol = fmt.Sprintf("%s+0x%x", si.Name, off)
}

// syscall names a system call by the guest's table.
func (n *imageNames) syscall(s *cost.Syscall) {
	s.Name, _ = syscalls.Name(n.proc.Arch, s.Number)
}

func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
