// Package lockwait carries in a context whom to tell that a write waits for another writer of
// the workspace: the store does the waiting, but only its caller knows where a message goes
// (the terminal, a progress dialog).
package lockwait

import "context"

type sayKey struct{}

// WithSay returns ctx carrying say, which Say calls; a nil say says nothing.
func WithSay(ctx context.Context, say func(msg string)) context.Context {
	if say == nil {
		return ctx
	}
	return context.WithValue(ctx, sayKey{}, say)
}

// Say tells msg to whoever ctx names, if anyone.
func Say(ctx context.Context, msg string) {
	if say, ok := ctx.Value(sayKey{}).(func(string)); ok {
		say(msg)
	}
}
