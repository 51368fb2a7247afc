package analysis

import "github.com/taudb-analyze/taudb-analyze/result"

// The result types are package result's, a leaf that the store and the
// report share without depending on the analyses; these aliases keep
// analysis.Result and the rest working for Go programs written against
// them.
type (
	// Result is result.Result: settings, tables and findings.
	Result = result.Result
	// Table is result.Table: named, typed columns.
	Table = result.Table
	// Column is result.Column.
	Column = result.Column
	// Cell is result.Cell: one value as the store keeps it.
	Cell = result.Cell
	// Kind is result.Kind: Number or Text.
	Kind = result.Kind
)

// The column kinds (result.Number, result.Text).
const (
	Number = result.Number
	Text   = result.Text
)
