package store

import (
	"context"
	"fmt"
	"strconv"
)

// perfExplorerClusterMethods are the analysis_settings.method strings
// PerfExplorer's cluster viewer looks for (AnalysisType.getClusterMethods
// in TAU's tools/src/perfexplorer/src/common/AnalysisType.java).
var perfExplorerClusterMethods = map[string]bool{"K Means": true, "Hierarchical": true, "Density Based (DBSCAN)": true}

// imagesOfParam is the analysis_settings_parameter of a viewer row (see
// insertViewerSettings): the id of the result whose pictures it holds.
const imagesOfParam = "_images_of"

// viewerRows selects the ids of the viewer rows of the result $1 (its id
// as text, the parameter's value).
const viewerRows = `SELECT analysis_settings FROM analysis_settings_parameter WHERE name = '` + imagesOfParam + `' AND value = $1`

// notViewerRow is a condition on analysis_settings s that leaves out the
// viewer rows, which are part of another result.
const notViewerRow = `NOT EXISTS (SELECT 1 FROM analysis_settings_parameter v WHERE v.analysis_settings = s.id AND v.name = '` + imagesOfParam + `')`

// insertViewerSettings writes, in SaveResult's transaction and after the
// result's own row id, the analysis_settings row PerfExplorer's cluster
// viewer selects for a clustering result: application and experiment NULL,
// trial, metric, method, dimension_reduction and normalization as the
// result's row has them (what PerfExplorerServer.insertRequest writes on
// a TAUdb). The row holds only the pictures (SaveResultWith, SaveImages), never the tables
// of numbers, and is tied to the result by the parameter imagesOfParam. A
// result PerfExplorer could not select (another method, no trial) gets no
// such row. Because each result's viewer row has a larger id than its own
// row and matches the same query, the newest row PerfExplorer's query
// finds is always a viewer row.
func insertViewerSettings(ctx context.Context, r runner, id int64, trial, metric any, method, dim, norm string) error {
	if !perfExplorerClusterMethods[method] || trial == nil {
		return nil
	}
	var vid int64
	err := r.query(ctx, `INSERT INTO analysis_settings (application, experiment, trial, metric, method, dimension_reduction, normalization)
VALUES (NULL, NULL, $1, $2, $3, $4, $5) RETURNING id`, func(scan func(...any) error) error { return scan(&vid) },
		trial, metric, method, dim, norm)
	if err != nil {
		return fmt.Errorf("insert PerfExplorer's analysis_settings: %w", err)
	}
	if _, err := r.execArgs(ctx, `INSERT INTO analysis_settings_parameter (analysis_settings, name, value) VALUES ($1, $2, $3)`,
		vid, imagesOfParam, strconv.FormatInt(id, 10)); err != nil {
		return fmt.Errorf("link PerfExplorer's analysis_settings: %w", err)
	}
	return nil
}

// viewerSettings returns the id of the viewer row of result id, or id
// itself when it has none (a result saved before viewer rows existed, or
// one PerfExplorer does not show): where its pictures go.
func viewerSettings(ctx context.Context, r runner, d Dialect, id int64) (int64, error) {
	if ours, err := hasTable(ctx, r, d, "analysis_settings_parameter"); err != nil || !ours {
		return id, err
	}
	out := id
	err := r.query(ctx, viewerRows+` ORDER BY analysis_settings LIMIT 1`, func(scan func(...any) error) error { return scan(&out) },
		strconv.FormatInt(id, 10))
	if err != nil {
		return 0, fmt.Errorf("find the PerfExplorer settings of result %d: %w", id, err)
	}
	return out, nil
}

// resultOfViewer returns the result whose viewer row id is (the value of
// its imagesOfParam), or id itself when id is no viewer row, so that
// LoadResult of a viewer row's id shows the result it belongs to.
func resultOfViewer(ctx context.Context, r runner, id int64) (int64, error) {
	var of string
	if err := r.query(ctx, `SELECT value FROM analysis_settings_parameter WHERE analysis_settings = $1 AND name = '`+imagesOfParam+`'`,
		func(scan func(...any) error) error { return scan(&of) }, id); err != nil {
		return 0, fmt.Errorf("read the result of settings %d: %w", id, err)
	}
	if of == "" {
		return id, nil
	}
	main, err := strconv.ParseInt(of, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("settings %d: parameter %s = %q: %w", id, imagesOfParam, of, err)
	}
	return main, nil
}
