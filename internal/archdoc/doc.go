// Package archdoc holds the tests that keep the docs true to the tree: the package table of
// docs/architecture.md names every package `go list ./...` finds and no other, and every path
// it, the README or docs/benchmarks.md cite in backquotes exists, so moving or adding a package
// fails a test until the docs say so.
package archdoc
