package store

import "context"

// WithBeforeTable returns a context under which SaveTrial calls f before
// writing each table, and SaveResult before its analysis_result rows and
// their cells; tests use it to cancel or break one save at a chosen
// table.
func WithBeforeTable(ctx context.Context, f func(table string)) context.Context {
	return context.WithValue(ctx, beforeTableKey{}, f)
}

// The pinned plan settings and the query of Stats' count, for the plan test.
const (
	PinCountPlan    = pinCountPlan
	StatsCountQuery = statsCountQuery
)
