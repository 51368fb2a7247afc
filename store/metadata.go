package store

import (
	"context"
	"fmt"
)

// TrialMetadata returns the trial-level attributes of trial id
// (primary_metadata), Application and Experiment included.
func (db *DB) TrialMetadata(ctx context.Context, id int64) (map[string]string, error) {
	out := map[string]string{}
	err := db.readTx(ctx, func(r runner) error {
		return r.query(ctx, `SELECT name, COALESCE(value, '') FROM primary_metadata WHERE trial = $1 ORDER BY name`,
			func(scan func(...any) error) error {
				var k, v string
				if err := scan(&k, &v); err != nil {
					return err
				}
				out[k] = v
				return nil
			}, id)
	})
	if err != nil {
		return nil, fmt.Errorf("read metadata of trial %d: %w", id, err)
	}
	return out, nil
}
