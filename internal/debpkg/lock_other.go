//go:build !unix

package debpkg

import "context"

// lock: without flock, concurrent callers are not kept apart; Debian's tools are not there
// either, so Root fails before it matters.
func lock(ctx context.Context, path string) (unlock func(), err error) { return func() {}, nil }
