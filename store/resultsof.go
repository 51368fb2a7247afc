package store

import (
	"context"
	"fmt"
)

// ResultTrials is a stored result's id and the ids of its trials, in the
// order they were saved.
type ResultTrials struct {
	// ID is the result's id (analysis_settings.id).
	ID int64
	// Trials are the trials' ids (analysis_settings_trial, by position);
	// a trial deleted since is missing from it.
	Trials []int64
}

// ResultsWithParam lists the stored results of analysis whose parameter
// name has value (Result.Params), newest first, with their trials' ids: a
// result an analysis may build on (regress reuses a shorter history's
// reduced trials). A database without taudb-analyze's tables has none.
func (db *DB) ResultsWithParam(ctx context.Context, analysis, name, value string) ([]ResultTrials, error) {
	var out []ResultTrials
	err := db.readTx(ctx, func(r runner) error {
		if ours, err := hasTable(ctx, r, db.dialect, "analysis_settings_parameter"); err != nil || !ours {
			return err
		}
		at := map[int64]int{}
		if err := r.query(ctx, `SELECT a.analysis_settings FROM analysis_settings_parameter a
JOIN analysis_settings_parameter p ON p.analysis_settings = a.analysis_settings AND p.name = $2 AND p.value = $3
WHERE a.name = '`+analysisParam+`' AND a.value = $1 ORDER BY a.analysis_settings DESC`,
			func(scan func(...any) error) error {
				var id int64
				if err := scan(&id); err != nil {
					return err
				}
				at[id] = len(out)
				out = append(out, ResultTrials{ID: id})
				return nil
			}, analysis, name, value); err != nil || len(out) == 0 {
			return err
		}
		return r.query(ctx, `SELECT t.analysis_settings, t.trial FROM analysis_settings_trial t
JOIN analysis_settings_parameter a ON a.analysis_settings = t.analysis_settings AND a.name = '`+analysisParam+`' AND a.value = $1
ORDER BY t.analysis_settings, t.position`, func(scan func(...any) error) error {
			var id, trial int64
			if err := scan(&id, &trial); err != nil {
				return err
			}
			if i, ok := at[id]; ok {
				out[i].Trials = append(out[i].Trials, trial)
			}
			return nil
		}, analysis)
	})
	if err != nil {
		return nil, fmt.Errorf("list the stored %s results with %s = %q: %w", analysis, name, value, err)
	}
	return out, nil
}
