package elfsym

import (
	"debug/elf"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// findDebugFile looks for the separate debug file of the image at path (the package comment's
// order) and returns the function symbols of the first that matches, and its path.
func findDebugFile(im *image, path, buildID string, debugDirs []string) ([]cand, string) {
	if len(buildID) >= 4 {
		for _, dir := range debugDirs {
			p := filepath.Join(dir, ".build-id", buildID[:2], buildID[2:]+".debug")
			if syms := debugSymbols(im, p, func(d *image) bool { return d.buildID() == buildID }); len(syms) > 0 {
				return syms, p
			}
		}
	}
	name, crc, ok := im.debugLink()
	if !ok || strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return nil, "" // a link is a base name; anything else could point anywhere
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, ""
	}
	folder := filepath.Dir(abs)
	tries := []string{filepath.Join(folder, name), filepath.Join(folder, ".debug", name)}
	for _, dir := range debugDirs {
		tries = append(tries, filepath.Join(dir, folder, name))
	}
	for _, p := range tries {
		if p == abs {
			continue
		}
		if syms := debugSymbols(im, p, func(d *image) bool { return d.crc() == crc }); len(syms) > 0 {
			return syms, p
		}
	}
	return nil, ""
}

// debugSymbols reads the .symtab functions of the debug file at p when it is an ELF file of the
// image's kind and matches.
func debugSymbols(im *image, p string, matches func(*image) bool) []cand {
	r, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	d, err := newImage(r, st.Size())
	if err != nil || d.ef.Class != im.ef.Class || d.ef.Machine != im.ef.Machine ||
		d.ef.Data != im.ef.Data || !matches(d) {
		return nil
	}
	return d.functionSymbols(elf.SHT_SYMTAB)
}

// crc is the CRC32 (IEEE, as .gnu_debuglink carries it) of the whole file.
func (im *image) crc() uint32 {
	h := crc32.NewIEEE()
	io.Copy(h, io.NewSectionReader(im.r, 0, int64(im.size))) // a read error gives a CRC that does not match
	return h.Sum32()
}
