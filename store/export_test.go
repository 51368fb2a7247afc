package store

import (
	"context"
	"time"
)

// WithBeforeTable returns a context under which SaveTrial calls f before
// writing each table, SaveResult before its analysis_result rows and
// their cells, SaveResultWith also before the pictures (ImageTable) and
// SaveMetric before its timer_value rows; tests use it to cancel or break one save at a chosen
// table.
func WithBeforeTable(ctx context.Context, f func(table string)) context.Context {
	return context.WithValue(ctx, beforeTableKey{}, f)
}

// The pinned plan settings and the query of Stats' count, for the plan test.
const (
	PinCountPlan    = pinCountPlan
	PinDerivedPlan  = pinDerivedPlan
	StatsQuery      = statsQuery
	StatsCountQuery = statsCountQuery
)

// WithQueryHook returns a context under which the store calls f with the
// text of every query it runs; tests count queries with it.
func WithQueryHook(ctx context.Context, f func(sql string)) context.Context {
	return context.WithValue(ctx, queryHookKey{}, f)
}

// MetadataQuery is the query SelectTrials reads trial metadata with.
const MetadataQuery = metadataQuery

// SetWhereTimeBudget sets the time budget of where expressions and returns
// a function restoring it.
func SetWhereTimeBudget(d time.Duration) (restore func()) {
	old := whereTimeBudget
	whereTimeBudget = d
	return func() { whereTimeBudget = old }
}

// ImageTable is the name the before-table hook is called with before a
// result's pictures are written.
const ImageTable = imageTable

// SetPlainInit makes Init of db create the plain layout on PostgreSQL, as
// Init did before the partitioned layout, for tests of such databases.
func (db *DB) SetPlainInit() { db.plainInit = true }

// SetPageBlockThreads sets the threads of a block of pages SaveTrial
// writes and returns a function restoring it (tests that call it do not
// run in parallel).
func SetPageBlockThreads(n int) (restore func()) {
	old := pageBlockThreads
	pageBlockThreads = n
	return func() { pageBlockThreads = old }
}

// PageTable is the table of the trials' pages.
const PageTable = pageTable
