// Package countio counts the bytes a reader gave, so long reads can report progress over a
// file's size. Every importer shares it.
package countio

import "io"

// Reader counts the bytes read from R in N.
type Reader struct {
	R io.Reader
	N int64
}

func (c *Reader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}
