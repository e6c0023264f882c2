// Package calls is the method trace's domain: calls with their inclusive and exclusive times,
// call trees, method reports, parents and children, and the deduction of a tracer's own
// overhead (seeds 002 and 003).
package calls
