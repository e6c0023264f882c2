package flame

// Brendan Gregg's folded stacks (FlameGraph's input, `stackcollapse-*.pl`'s output, which
// speedscope, Firefox Profiler, pprof and hotspot read too): one line per calling context with
// time of its own, `outermost;…;leaf COUNT`.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// FoldedName is a frame's name as a folded line can hold it: ';' separates frames and a line
// break ends the line, so ';' becomes ',' (a JVM descriptor "(Ljava/lang/String;I)V" reads
// "(Ljava/lang/String,I)V") and a line break a space. Reading the line back gives the
// replaced name.
func FoldedName(name string) string {
	if !strings.ContainsAny(name, ";\r\n") {
		return name
	}
	return strings.NewReplacer(";", ",", "\r\n", " ", "\r", " ", "\n", " ").Replace(name)
}

// WriteFolded writes root's calling contexts as folded stacks, so the graph opens in the tools
// people already use: one line per frame with Self > 0, its callers first, root left out (its
// children are the lines' first frames), names through FoldedName. Origin and Layer are not
// written: the format has no place for them. The root's own Self, time with no frame on the
// stack, has no line either.
func WriteFolded(w io.Writer, root *Node) error {
	if root == nil {
		return nil
	}
	bw := bufio.NewWriter(w)
	var path []string
	var walk func(n *Node) error
	walk = func(n *Node) error {
		path = append(path, FoldedName(n.Name))
		if n.Self > 0 {
			if _, err := fmt.Fprintf(bw, "%s %d\n", strings.Join(path, ";"), n.Self); err != nil {
				return err
			}
		}
		for _, c := range n.Children {
			if err := walk(c); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		return nil
	}
	for _, c := range root.Children {
		if err := walk(c); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// FoldedRoot is the name ReadFolded gives the root, as sampled runs' graphs name theirs.
const FoldedRoot = "all"

// maxFoldedLine bounds one line of folded stacks: deep Java stacks make lines of hundreds of
// KB, and a line with no end must not take all memory.
const maxFoldedLine = 64 << 20

// maxFoldedDepth bounds a stack's frames: the graph's walks recurse once a frame, and the
// deepest real stacks are tens of thousands of frames (a recursion 20,000 calls deep is one of
// the shapes the workspace is tested with).
const maxFoldedDepth = 100_000

// ReadFolded reads folded stacks (a file other tools wrote, or WriteFolded's) into a graph
// under a root FoldedRoot; equal stacks add up. name is the file's name, for errors, which say
// the line. A line is frames, a space and a count (a whole number ≥ 0); blank lines are
// skipped. Frames have no Origin: the format does not carry one.
func ReadFolded(r io.Reader, name string) (*Node, error) {
	root := &Node{Name: FoldedRoot}
	var b builder
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxFoldedLine)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if err := b.addFolded(root, text); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line is longer than %d MB", maxFoldedLine>>20)
		}
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	sortTree(root)
	return root, nil
}

// addFolded adds one line's stack and count to root.
func (b *builder) addFolded(root *Node, text string) error {
	i := strings.LastIndexAny(text, " \t")
	if i < 0 {
		return fmt.Errorf("want frames, a space and a count: %q", cut(text))
	}
	n, err := strconv.ParseInt(text[i+1:], 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("count %q is not a whole number ≥ 0", cut(text[i+1:]))
	}
	if root.Total > math.MaxInt64-n {
		return errors.New("the counts add up to more than 2⁶³")
	}
	frames := strings.Split(strings.TrimRight(text[:i], " \t"), ";")
	if len(frames) > maxFoldedDepth {
		return fmt.Errorf("a stack of %d frames: more than %d", len(frames), maxFoldedDepth)
	}
	at := root
	at.Total += n
	for _, frame := range frames {
		at = b.child(at, frame, "")
		at.Total += n
	}
	at.Self += n
	return nil
}

// cut shortens what an error quotes from a line.
func cut(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
