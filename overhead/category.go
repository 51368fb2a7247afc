package overhead

import (
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/classify"
)

// Category is one of SCALEA's temporal overhead categories; the categories,
// the rules that assign them and their matching live in package classify,
// shared with every other analysis that splits time by class.
type Category = classify.Category

// The categories (see classify.Category).
const (
	DataMovement          = classify.DataMovement
	Synchronization       = classify.Synchronization
	ControlOfParallelism  = classify.ControlOfParallelism
	AdditionalComputation = classify.AdditionalComputation
	LossOfParallelism     = classify.LossOfParallelism
	Unidentified          = classify.Unidentified
	Computation           = classify.Computation
)

// The sub-categories of LossOfParallelism (see classify.SubUnparallelized).
const (
	SubUnparallelized = classify.SubUnparallelized
	SubPartial        = classify.SubPartial
	SubReplicated     = classify.SubReplicated
)

// OverheadCategories returns the identified overhead categories in the order
// of SCALEA's Figure 2 (see classify.OverheadCategories).
func OverheadCategories() []Category { return classify.OverheadCategories() }

// RulesTable renders rules as a table for documentation and reports, one row
// per rule in matching order: order (1-based), id, match, group, category,
// sub, class, note and source.
func RulesTable(rules []classify.Rule) analysis.Table {
	n := len(rules)
	order := make([]float64, n)
	cols := map[string][]string{}
	keys := []string{"id", "match", "group", "category", "sub", "class", "note", "source"}
	for _, k := range keys {
		cols[k] = make([]string, n)
	}
	for i, r := range rules {
		order[i] = float64(i + 1)
		for k, v := range map[string]string{"id": r.ID, "match": r.Match, "group": r.Group, "category": string(r.Category),
			"sub": r.Sub, "class": r.Class, "note": r.Note, "source": r.Source} {
			cols[k][i] = v
		}
	}
	t := analysis.Table{Name: "rules", Title: "Region classification rules, in matching order (the first matching rule wins; unmatched regions are computation)"}
	t.AddNum("order", "", order)
	for _, k := range keys {
		t.AddText(k, cols[k])
	}
	return t
}
