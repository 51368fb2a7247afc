package main

import (
	"context"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// trialTables are the tables SaveTrial writes (see the store package
// documentation), in the order the documentation lists them.
var trialTables = []string{
	"trial", "thread", "metric", "timer", "timer_group", "timer_parameter",
	"timer_callpath", "timer_callpath_name", "time_range", "timer_call_data",
	"timer_value", "counter", "counter_value", "primary_metadata", "secondary_metadata",
}

// exportOrder returns trialTables in an order their CSV files can be loaded
// in with the foreign keys of db checked (LoadOrder over db.ForeignKeys).
func exportOrder(ctx context.Context, db *store.DB) ([]string, []store.Reference, error) {
	refs, err := db.ForeignKeys(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("read the foreign keys: %w", err)
	}
	var edges []Edge
	for _, r := range refs {
		edges = append(edges, Edge{Child: r.Table, Parent: r.Parent})
	}
	order, err := LoadOrder(trialTables, edges)
	return order, refs, err
}
