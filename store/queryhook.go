package store

import "context"

// queryHookKey keys the context value through which tests see every query
// the store runs (see noteQuery).
type queryHookKey struct{}

// noteQuery tells the hook of ctx, when there is one, of a query about to
// run; tests count queries with it.
func noteQuery(ctx context.Context, sql string) {
	if f, ok := ctx.Value(queryHookKey{}).(func(string)); ok {
		f(sql)
	}
}
