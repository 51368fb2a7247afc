package store

import (
	"context"
	"fmt"
)

// loadLongNamesQuery reads the full text of a trial's shortened names.
const loadLongNamesQuery = `SELECT short_name, full_name FROM ` + longNameTable + ` WHERE trial = $1 ORDER BY short_name`

// readLongNames returns the map from each of trial id's shortened names
// (drg.ShortName) to its full text, as SaveTrial kept it in our table
// trial_long_name: what drg.Trial.LongNames held when the trial was saved.
// It is nil when the trial has no shortened name, and nil without an error
// when the database lacks the table (one created by TAU's tools or by an
// earlier version: the trial then has only its short names).
func readLongNames(ctx context.Context, r runner, d Dialect, id int64) (map[string]string, error) {
	if ours, err := hasTable(ctx, r, d, longNameTable); err != nil || !ours {
		return nil, err
	}
	var long map[string]string
	err := r.query(ctx, loadLongNamesQuery, func(scan func(...any) error) error {
		var short, full string
		if err := scan(&short, &full); err != nil {
			return err
		}
		if long == nil {
			long = map[string]string{}
		}
		long[short] = full
		return nil
	}, id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", longNameTable, err)
	}
	return long, nil
}
