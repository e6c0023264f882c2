package parquet

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	pq "github.com/parquet-go/parquet-go"
)

// docColumn is a column as docs/parquet.md's Schema tables write it: "INT64" or "INT64 nullable".
type docColumn struct{ name, typ string }

// TestSchemaDocumented reads every table's schema from its row type and fails when a column
// is missing from docs/parquet.md's Schema section, extra there, in another order, or typed
// otherwise: the document is the contract DuckDB and Spark queries are written against.
func TestSchemaDocumented(t *testing.T) {
	doc := schemaOfDoc(t, "../../docs/parquet.md")
	var names []string
	for _, tab := range Tables() {
		names = append(names, tab.Name)
		want := columnsOf(tab.Schema)
		got, ok := doc[tab.Name]
		if !ok {
			t.Errorf("table %s has no section \"### `%s`\" in docs/parquet.md's Schema", tab.Name, tab.Name)
			continue
		}
		for _, c := range want {
			i := slices.IndexFunc(got, func(d docColumn) bool { return d.name == c.name })
			switch {
			case i < 0:
				t.Errorf("%s.%s (%s) is not documented", tab.Name, c.name, c.typ)
			case got[i].typ != c.typ:
				t.Errorf("%s.%s is %s; the document says %s", tab.Name, c.name, c.typ, got[i].typ)
			}
		}
		for _, d := range got {
			if !slices.ContainsFunc(want, func(c docColumn) bool { return c.name == d.name }) {
				t.Errorf("%s.%s is documented but the files have no such column", tab.Name, d.name)
			}
		}
		if !t.Failed() && !slices.Equal(got, want) {
			t.Errorf("%s: the document lists the columns in another order than the files have them:\ndoc:  %v\ncode: %v", tab.Name, got, want)
		}
	}
	for name := range doc {
		if !slices.Contains(names, name) {
			t.Errorf("docs/parquet.md documents a table %s that the export does not write", name)
		}
	}
}

// columnsOf is a schema's columns with their types as the document names them.
func columnsOf(s *pq.Schema) []docColumn {
	var out []docColumn
	for _, f := range s.Fields() {
		typ, logical := f.Type().Kind().String(), ""
		if lt := f.Type().LogicalType(); lt != nil {
			logical = lt.String()
		}
		switch {
		case f.Type().Kind() == pq.ByteArray && logical == "STRING":
			typ = "STRING"
		case f.Type().Kind() == pq.Int64 && logical == "INT(64,false)":
			typ = "UINT64"
		case logical != "" && logical != "INT(64,true)" && logical != "INT(32,true)":
			typ += " " + logical // a logical type the document has no name for
		}
		if f.Optional() {
			typ += " nullable"
		}
		out = append(out, docColumn{f.Name(), typ})
	}
	return out
}

var (
	tableHeading = regexp.MustCompile("^### `([a-z_]+)`")
	columnLine   = regexp.MustCompile("^\\| `([a-z_]+)` \\| ([A-Z0-9]+(?: nullable)?) \\|")
)

// schemaOfDoc reads the Schema section's tables: each "### `table`" and its column lines.
func schemaOfDoc(t *testing.T, path string) map[string][]docColumn {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]docColumn{}
	in, table := false, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in, table = line == "## Schema", ""
			continue
		}
		if !in {
			continue
		}
		if m := tableHeading.FindStringSubmatch(line); m != nil {
			table = m[1]
			out[table] = nil
		} else if m := columnLine.FindStringSubmatch(line); m != nil && table != "" {
			out[table] = append(out[table], docColumn{m[1], m[2]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s has no tables under ## Schema", path)
	}
	return out
}
