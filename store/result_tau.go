package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/result"
)

// keyTrialCount returns the number of trial ids in a result key (resultKey:
// "... ids=[3 7 9]"), the trials the result was computed from when it was
// saved; 0 when the key holds none.
func keyTrialCount(key string) int {
	i := strings.LastIndex(key, " ids=[")
	if i < 0 || !strings.HasSuffix(key, "]") {
		return 0
	}
	return len(strings.Fields(key[i+len(" ids=[") : len(key)-1]))
}

// resultsTAUQuery lists the analysis_settings rows with what TAU's own
// columns say of them: the method, the trial's and the metric's names, and
// the number of their analysis_result rows.
const resultsTAUQuery = `
SELECT s.id, s.method, COALESCE(m.name, ''), COALESCE(t.name, ''), s.trial IS NOT NULL,
       (SELECT COUNT(*) FROM analysis_result r WHERE r.analysis_settings = s.id)
FROM analysis_settings s
LEFT JOIN metric m ON m.id = s.metric
LEFT JOIN trial t ON t.id = s.trial
ORDER BY s.id DESC`

// resultsTAU lists the results of a database without taudb-analyze's
// tables from TAU's tables alone: analysis = analysis_settings.method,
// the trial and metric its columns name, tables = its analysis_result rows
// (PerfExplorer's images).
func resultsTAU(ctx context.Context, r runner) ([]ResultInfo, error) {
	var out []ResultInfo
	err := r.query(ctx, resultsTAUQuery, func(scan func(...any) error) error {
		var ri ResultInfo
		var trial string
		var hasTrial bool
		if err := scan(&ri.ID, &ri.Analysis, &ri.Metric, &trial, &hasTrial, &ri.Tables); err != nil {
			return err
		}
		if hasTrial {
			ri.Trials = []string{trial}
		}
		out = append(out, ri)
		return nil
	})
	return out, err
}

// loadResultTAU reads result id from TAU's tables alone, for a database
// without taudb-analyze's tables: the method, trial, metric, dimension
// reduction and normalization of analysis_settings, and a finding that
// says how many analysis_result rows (PerfExplorer's images, which have no
// table of numbers) it has.
func loadResultTAU(ctx context.Context, r runner, id int64) (*result.Result, error) {
	res := &result.Result{Params: map[string]string{}, Tables: []result.Table{}}
	var dim, norm string
	var n int
	found := false
	err := r.query(ctx, `SELECT s.method, s.dimension_reduction, s.normalization, COALESCE(m.name, ''), COALESCE(t.name, ''),
(SELECT COUNT(*) FROM analysis_result r WHERE r.analysis_settings = s.id)
FROM analysis_settings s LEFT JOIN metric m ON m.id = s.metric LEFT JOIN trial t ON t.id = s.trial WHERE s.id = $1`,
		func(scan func(...any) error) error {
			found = true
			return scan(&res.Analysis, &dim, &norm, &res.Metric, &res.Trial, &n)
		}, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: %d", ErrNoResult, id)
	}
	res.Params["dimension_reduction"], res.Params["normalization"] = dim, norm
	res.Findings = []string{fmt.Sprintf("stored by another tool (PerfExplorer's analysis_settings): %d analysis_result row(s), images without a table of numbers", n)}
	return res, nil
}

// incompleteFinding says that a stored result lost trials: want were saved
// with it (keyTrialCount), have are left.
func incompleteFinding(want, have int) string {
	return fmt.Sprintf("incomplete: %d of the %d trials this result was computed from have been deleted since it was saved", want-have, want)
}

// incompleteResults returns the ids of the stored results that lost some
// of their trials since they were saved (deleted by another tool, whose
// delete cascaded to analysis_settings_trial), in id order. A database
// without taudb-analyze's tables has none.
func incompleteResults(ctx context.Context, r runner, d Dialect) ([]int64, error) {
	if ours, err := hasTable(ctx, r, d, "analysis_settings_trial"); err != nil || !ours {
		return nil, err
	}
	var out []int64
	err := r.query(ctx, `SELECT p.analysis_settings, p.value,
(SELECT COUNT(*) FROM analysis_settings_trial t WHERE t.analysis_settings = p.analysis_settings)
FROM analysis_settings_parameter p WHERE p.name = '_key' ORDER BY p.analysis_settings`, func(scan func(...any) error) error {
		var id, have int64
		var key string
		if err := scan(&id, &key, &have); err != nil {
			return err
		}
		if int64(keyTrialCount(key)) > have {
			out = append(out, id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check the results' trials: %w", err)
	}
	return out, nil
}
