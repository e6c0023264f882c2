package runset

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// scaleExecs multiplies the COUNT of every `exec TID COUNT` line of a basic-block profile
// (docs/bbprofile-format.md) by f ≥ 1, rounded: each block runs more often, as in a commit
// that does more work. Everything else is kept: blocks, instructions, images and system calls,
// and a cache run's misses, which stay within the fetches they are counted from.
func scaleExecs(text []byte, f float64) ([]byte, error) {
	out := make([]byte, 0, len(text)+len(text)/50)
	for n := 1; len(text) > 0; n++ {
		line, rest, _ := bytes.Cut(text, []byte{'\n'})
		text = rest
		if bytes.HasPrefix(line, []byte("exec ")) {
			scaled, err := scaleExec(line, f)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			line = scaled
		}
		out = append(append(out, line...), '\n')
	}
	return out, nil
}

func scaleExec(line []byte, f float64) ([]byte, error) {
	fields := bytes.Fields(line)
	if len(fields) != 3 {
		return nil, fmt.Errorf("exec line %q: want exec TID COUNT", line)
	}
	count, err := parseNumber(string(fields[2]))
	if err != nil {
		return nil, fmt.Errorf("exec line %q: %w", line, err)
	}
	scaled := max(1, uint64(math.Round(float64(count)*f)))
	out := append([]byte("exec "), fields[1]...)
	return strconv.AppendUint(append(out, ' '), scaled, 10), nil
}

// parseNumber reads a decimal or 0x… hexadecimal number, as the format writes them.
func parseNumber(s string) (uint64, error) {
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		return strconv.ParseUint(s[2:], 16, 64)
	}
	return strconv.ParseUint(s, 10, 64)
}
