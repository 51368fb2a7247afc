package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/taudb-analyze/taudb-analyze/result"
)

// ErrNoResult is wrapped by LoadResult's error when no stored result has the
// given id.
var ErrNoResult = errors.New("no such result")

// resultTypeTable is the analysis_result.result_type of a table of numbers
// written by taudb-analyze. PerfExplorer's codes 0-7 name its images
// (dendrogram, histogram, ..., correlation scatterplot); 100 is ours.
const resultTypeTable = 100

// analysisParam is the analysis_settings_parameter under which a result's
// analysis name is kept (analysis_settings.method may hold PerfExplorer's
// method string instead).
const analysisParam = "_analysis"

// keyParam is the analysis_settings_parameter holding the result's key (see
// resultKey), by which FindResult finds a result computed the same way.
const keyParam = "_key"

// shapeParam is the analysis_settings_parameter saying whether the result is
// of one trial (Result.Trial, "single") or of several (Result.Trials,
// "multi", even when only one trial was given), so that loading restores
// the same field. Results stored before it existed are told apart by
// guessing: one trial and no "trials" parameter means single.
const shapeParam = "_shape"

// resultKey identifies how a result was computed: the analysis, its trials
// (names and database ids), metric and every parameter (result.Result.Key).
func resultKey(res *result.Result, trials []int64) string {
	return fmt.Sprintf("%s ids=%v", res.Key(), trials)
}

// FindResult returns the id of a stored result computed the same way as res
// from the same trials (same analysis, trials, metric and parameters), and
// whether there is one, so that a study run again can reuse it instead of
// storing it twice.
func (db *DB) FindResult(ctx context.Context, res *result.Result, trials []int64) (int64, bool, error) {
	var id int64
	err := db.readTx(ctx, func(r runner) error {
		if ours, err := hasTable(ctx, r, db.dialect, "analysis_settings_parameter"); err != nil || !ours {
			return err // without the table no result of ours is stored
		}
		return r.query(ctx, `SELECT analysis_settings FROM analysis_settings_parameter WHERE name = $1 AND value = $2 ORDER BY analysis_settings LIMIT 1`,
			func(scan func(...any) error) error { return scan(&id) }, keyParam, resultKey(res, trials))
	})
	if err != nil {
		return 0, false, fmt.Errorf("find result: %w", err)
	}
	return id, id != 0, nil
}

// titleParam prefixes the parameter that keeps the full title of a table
// whose title is longer than analysis_result.description (255) allows.
const titleParam = "_title."

// findingsTable is the name under which a result's findings are stored, as
// a one-column text table.
const findingsTable = "_findings"

// ResultInfo describes one stored analysis result.
type ResultInfo struct {
	// ID is the analysis_settings id, the result's id for `results ID`.
	ID int64 `json:"id"`
	// Analysis is the analysis (analysis_settings.method).
	Analysis string `json:"analysis"`
	// Trials names the trials the result was computed from.
	Trials []string `json:"trials"`
	// Metric is the metric the analysis used.
	Metric string `json:"metric"`
	// Tables counts the result's tables.
	Tables int `json:"tables"`
	// MissingTrials counts the trials the result was computed from that
	// the database no longer holds (deleted by another tool since): the
	// result is incomplete. 0 for a complete result.
	MissingTrials int `json:"missing_trials"`
}

// SaveResult stores a result in one transaction: an analysis_settings row
// (trial = the first trial, metric = the metric row of that trial named
// res.Metric when there is one, method = PerfExplorer's method string from
// res.Params["method"] when the analysis has one ("K Means", "Hierarchical",
// ...) or else res.Analysis, dimension_reduction
// and normalization from res.Params or "None"), its parameters and trials in
// analysis_settings_parameter and analysis_settings_trial, one
// analysis_result row per table (result_type 100, description = the table's
// name) with its columns in analysis_result_column and its cells in
// analysis_result_value (NaN stored as NULL). trials are the database ids of
// the result's trials, in the result's order. It returns the settings id.
// A clustering result PerfExplorer can show (method "K Means",
// "Hierarchical" or "Density Based (DBSCAN)") gets a second settings row,
// the one PerfExplorer's viewer selects, for its pictures alone (see
// insertViewerSettings); it is part of the result, not listed by Results.
// SaveResultWith stores pictures and a derived metric in the same
// transaction.
//
// The trials are locked against deletion while the result is written (see
// DeleteTrial): a trial deleted before the lock is taken makes SaveResult
// fail with an error wrapping ErrNoTrial, having written nothing.
func (db *DB) SaveResult(ctx context.Context, res *result.Result, trials []int64) (int64, error) {
	saved, err := db.SaveResultWith(ctx, res, trials, ResultExtras{})
	return saved.ID, err
}

// saveResultTx writes res (see SaveResult) in the transaction of r and
// returns its settings id.
func (db *DB) saveResultTx(ctx context.Context, r runner, res *result.Result, trials []int64) (int64, error) {
	if err := db.lockTrials(ctx, r, false, trials...); err != nil {
		return 0, err
	}
	id, err := insertSettings(ctx, r, res, trials)
	if err != nil {
		return 0, err
	}
	if err := insertParams(ctx, r, id, resultParams(res, trials)); err != nil {
		return 0, err
	}
	for i, t := range trials {
		if _, err := r.execArgs(ctx, `INSERT INTO analysis_settings_trial (analysis_settings, position, trial) VALUES ($1, $2, $3)`,
			id, i, t); err != nil {
			return 0, fmt.Errorf("insert trial %d: %w", t, err)
		}
	}
	tables := res.Tables
	if len(res.Findings) > 0 {
		f := result.Table{Name: findingsTable, Title: "Findings"}
		f.AddText("finding", res.Findings)
		tables = append(append([]result.Table(nil), tables...), f)
	}
	for ti := range tables {
		if err := saveTable(ctx, r, id, &tables[ti]); err != nil {
			return 0, fmt.Errorf("table %q: %w", tables[ti].Name, err)
		}
	}
	return id, nil
}

// insertSettings writes the analysis_settings row of res (and its
// PerfExplorer viewer row, see insertViewerSettings) and returns its id.
func insertSettings(ctx context.Context, r runner, res *result.Result, trials []int64) (int64, error) {
	var trial, metric any
	if len(trials) > 0 {
		trial = trials[0]
		var mid int64
		err := r.query(ctx, `SELECT id FROM metric WHERE trial = $1 AND name = $2 ORDER BY id LIMIT 1`,
			func(scan func(...any) error) error { return scan(&mid) }, trials[0], res.Metric)
		if err != nil {
			return 0, fmt.Errorf("find metric %q: %w", res.Metric, err)
		}
		if mid != 0 {
			metric = mid
		}
	}
	dim, norm := res.Params["dimension_reduction"], res.Params["normalization"]
	if dim == "" {
		dim = "None"
	}
	if norm == "" {
		norm = "None"
	}
	// method holds PerfExplorer's string where the analysis has one
	// ("K Means", ...), else the analysis's name; the name is kept as
	// the parameter "analysis" too.
	method := res.Params["method"]
	if method == "" {
		method = res.Analysis
	}
	var id int64
	err := r.query(ctx, `INSERT INTO analysis_settings (trial, metric, method, dimension_reduction, normalization)
VALUES ($1, $2, $3, $4, $5) RETURNING id`, func(scan func(...any) error) error { return scan(&id) },
		trial, metric, method, dim, norm)
	if err != nil {
		return 0, fmt.Errorf("insert analysis_settings: %w", err)
	}
	if err := insertViewerSettings(ctx, r, id, trial, metric, method, dim, norm); err != nil {
		return 0, err
	}
	return id, nil
}

// resultParams returns the analysis_settings_parameter rows of res: its
// metric, analysis, key, shape, the full titles too long for
// analysis_result.description, and res.Params.
func resultParams(res *result.Result, trials []int64) map[string]string {
	shape := "multi"
	if res.Trial != "" {
		shape = "single"
	}
	params := map[string]string{"metric": res.Metric, analysisParam: res.Analysis, keyParam: resultKey(res, trials), shapeParam: shape}
	for _, t := range res.Tables {
		if len(t.Title) > 255 { // analysis_result.description is VARCHAR(255)
			params[titleParam+t.Name] = t.Title
		}
	}
	for k, v := range res.Params {
		params[k] = v
	}
	return params
}

// insertParams writes params as analysis_settings_parameter rows of
// settings id, in name order.
func insertParams(ctx context.Context, r runner, id int64, params map[string]string) error {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := r.execArgs(ctx, `INSERT INTO analysis_settings_parameter (analysis_settings, name, value) VALUES ($1, $2, $3)`,
			id, k, params[k]); err != nil {
			return fmt.Errorf("insert parameter %q: %w", k, err)
		}
	}
	return nil
}

// saveTable writes table t of the result with settings id settings: its
// analysis_result row, its columns and its cells (see cellRows).
func saveTable(ctx context.Context, r runner, settings int64, t *result.Table) error {
	var rid int64
	title := t.Title
	if title == "" {
		title = t.Name
	}
	if len(title) > 255 {
		cut := 255
		for cut > 0 && !utf8.RuneStart(title[cut]) {
			cut-- // never split a character: PostgreSQL refuses a broken UTF-8 sequence
		}
		title = title[:cut]
	}
	beforeTable(ctx, "analysis_result")
	err := r.query(ctx, `INSERT INTO analysis_result (analysis_settings, description, result_type) VALUES ($1, $2, $3) RETURNING id`,
		func(scan func(...any) error) error { return scan(&rid) }, settings, title, resultTypeTable)
	if err != nil {
		return fmt.Errorf("insert analysis_result: %w", err)
	}
	for ci, c := range t.Columns {
		if _, err := r.execArgs(ctx, `INSERT INTO analysis_result_column (analysis_result, position, table_name, column_name, unit, kind) VALUES ($1, $2, $3, $4, $5, $6)`,
			rid, ci, t.Name, c.Name, c.Unit, c.Kind.String()); err != nil {
			return fmt.Errorf("insert column %q: %w", c.Name, err)
		}
	}
	beforeTable(ctx, "analysis_result_value")
	if err := bulkInsert(ctx, r, cellRows(rid, t)); err != nil {
		return fmt.Errorf("insert cells: %w", err)
	}
	return nil
}

// cellColumns are the columns of analysis_result_value a result writes.
var cellColumns = []string{"analysis_result", "table_name", "row_index", "column_name", "value_num", "value_text"}

// cellRows yields the analysis_result_value rows of t, row by row and
// column by column (the order LoadResult reads them back by id): a number
// in value_num (NULL for NaN and ±Inf), a text in value_text.
func cellRows(rid int64, t *result.Table) tableRows {
	rows, cols := t.NumRows(), len(t.Columns)
	i := 0
	buf := make([]any, len(cellColumns))
	next := func() ([]any, bool) {
		if i >= rows*cols {
			return nil, false
		}
		row, c := i/cols, &t.Columns[i%cols]
		i++
		var num, text any
		if c.Kind == result.Number {
			if v := c.Num[row]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				num = v
			}
		} else {
			text = c.Text[row]
		}
		buf[0], buf[1], buf[2], buf[3], buf[4], buf[5] = rid, t.Name, row, c.Name, num, text
		return buf, true
	}
	return tableRows{table: "analysis_result_value", columns: cellColumns, rows: rows * cols, next: next}
}

// LoadResult reads a stored result back, without recomputing it.
func (db *DB) LoadResult(ctx context.Context, id int64) (*result.Result, error) {
	var res *result.Result
	err := db.readTx(ctx, func(r runner) error {
		ours, err := hasTable(ctx, r, db.dialect, "analysis_settings_parameter")
		if err != nil {
			return err
		}
		if !ours {
			res, err = loadResultTAU(ctx, r, id)
			return err
		}
		if id, err = resultOfViewer(ctx, r, id); err != nil {
			return err
		}
		res, err = loadResultOurs(ctx, r, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load result %d: %w", id, err)
	}
	if res == nil {
		res = &result.Result{Params: map[string]string{}}
	}
	return res, nil
}

// storedSettings is what a result's settings row and parameters say
// besides Result.Params.
type storedSettings struct {
	savedTrials int               // trials when it was saved (its key)
	shape       string            // "single", "multi" or "" (before shapeParam)
	titles      map[string]string // full table titles by table name
}

// loadResultOurs reads result id from taudb-analyze's tables: settings,
// parameters, trials, then the tables' columns and cells.
func loadResultOurs(ctx context.Context, r runner, id int64) (*result.Result, error) {
	res := &result.Result{Params: map[string]string{}}
	st, err := readResultSettings(ctx, r, id, res)
	if err != nil {
		return nil, err
	}
	if err := readResultTrials(ctx, r, id, res); err != nil {
		return nil, err
	}
	tables, order, err := readResultColumns(ctx, r, id)
	if err != nil {
		return nil, err
	}
	if err := readResultCells(ctx, r, id, tables); err != nil {
		return nil, err
	}
	assembleResult(res, st, tables, order)
	return res, nil
}

// readResultSettings reads the analysis and parameters of result id into
// res, taking out the parameters taudb-analyze keeps for itself.
func readResultSettings(ctx context.Context, r runner, id int64, res *result.Result) (storedSettings, error) {
	found := false
	if err := r.query(ctx, `SELECT method FROM analysis_settings WHERE id = $1`, func(scan func(...any) error) error {
		found = true
		return scan(&res.Analysis)
	}, id); err != nil {
		return storedSettings{}, err
	}
	if !found {
		return storedSettings{}, fmt.Errorf("%w: %d", ErrNoResult, id)
	}
	if err := r.query(ctx, `SELECT name, value FROM analysis_settings_parameter WHERE analysis_settings = $1 ORDER BY name`,
		func(scan func(...any) error) error {
			var k, v string
			if err := scan(&k, &v); err != nil {
				return err
			}
			res.Params[k] = v
			return nil
		}, id); err != nil {
		return storedSettings{}, fmt.Errorf("read parameters: %w", err)
	}
	res.Metric = res.Params["metric"]
	if a, ok := res.Params[analysisParam]; ok {
		res.Analysis = a
		delete(res.Params, analysisParam)
	}
	st := storedSettings{savedTrials: keyTrialCount(res.Params[keyParam]), shape: res.Params[shapeParam], titles: map[string]string{}}
	delete(res.Params, keyParam)
	delete(res.Params, shapeParam)
	for k, v := range res.Params {
		if name, ok := strings.CutPrefix(k, titleParam); ok {
			st.titles[name] = v
			delete(res.Params, k)
		}
	}
	return st, nil
}

// readResultTrials reads the names of result id's trials, in order.
func readResultTrials(ctx context.Context, r runner, id int64, res *result.Result) error {
	err := r.query(ctx, `SELECT COALESCE(t.name, '') FROM analysis_settings_trial s JOIN trial t ON t.id = s.trial
WHERE s.analysis_settings = $1 ORDER BY s.position`, func(scan func(...any) error) error {
		var name string
		if err := scan(&name); err != nil {
			return err
		}
		res.Trials = append(res.Trials, name)
		return nil
	}, id)
	if err != nil {
		return fmt.Errorf("read trials: %w", err)
	}
	return nil
}

// readResultColumns reads the tables of result id with their columns (no
// cells yet), by name and in the order stored.
func readResultColumns(ctx context.Context, r runner, id int64) (map[string]*result.Table, []string, error) {
	tables := map[string]*result.Table{}
	var order []string
	err := r.query(ctx, `SELECT c.table_name, r.description, c.column_name, c.unit, c.kind FROM analysis_result_column c
JOIN analysis_result r ON r.id = c.analysis_result WHERE r.analysis_settings = $1 ORDER BY r.id, c.position`,
		func(scan func(...any) error) error {
			var tn, title, cn, unit, kind string
			if err := scan(&tn, &title, &cn, &unit, &kind); err != nil {
				return err
			}
			t := tables[tn]
			if t == nil {
				t = &result.Table{Name: tn, Title: title}
				tables[tn] = t
				order = append(order, tn)
			}
			k := result.Number
			if kind == result.Text.String() {
				k = result.Text
			}
			t.Columns = append(t.Columns, result.Column{Name: cn, Unit: unit, Kind: k})
			return nil
		}, id)
	if err != nil {
		return nil, nil, fmt.Errorf("read columns: %w", err)
	}
	return tables, order, nil
}

// readResultCells reads the cells of result id into its tables, in the
// order they were written (row by row). A cell's row may repeat an
// earlier row or be the next one; a row further on (a gap, which a save
// never writes) is an error, so that a hostile row index cannot make the
// read allocate without bound.
func readResultCells(ctx context.Context, r runner, id int64, tables map[string]*result.Table) error {
	err := r.query(ctx, `SELECT v.table_name, v.row_index, v.column_name, v.value_num, v.value_text FROM analysis_result_value v
JOIN analysis_result r ON r.id = v.analysis_result WHERE r.analysis_settings = $1 ORDER BY v.id`,
		func(scan func(...any) error) error {
			var tn, cn string
			var row int
			var num *float64
			var text *string
			if err := scan(&tn, &row, &cn, &num, &text); err != nil {
				return err
			}
			c, err := cellColumn(tables, tn, cn, row)
			if err != nil {
				return err
			}
			putCell(c, row, num, text)
			return nil
		}, id)
	if err != nil {
		return fmt.Errorf("read cells: %w", err)
	}
	return nil
}

// cellColumn returns the column a stored cell belongs to, checking that
// its row is at most the column's next row.
func cellColumn(tables map[string]*result.Table, tn, cn string, row int) (*result.Column, error) {
	t := tables[tn]
	if t == nil {
		return nil, fmt.Errorf("cell of unknown table %q", tn)
	}
	c := t.Col(cn)
	if c == nil {
		return nil, fmt.Errorf("cell of unknown column %q.%q", tn, cn)
	}
	if row < 0 || row > c.Len() {
		return nil, fmt.Errorf("cell %q.%q of row %d follows row %d: the stored rows have a gap", tn, cn, row, c.Len()-1)
	}
	return c, nil
}

// putCell stores a cell's value at row (at most the column's length):
// NULL is NaN for a number and "" for a text.
func putCell(c *result.Column, row int, num *float64, text *string) {
	if c.Kind == result.Text {
		s := ""
		if text != nil {
			s = *text
		}
		if row == len(c.Text) {
			c.Text = append(c.Text, s)
		} else {
			c.Text[row] = s
		}
		return
	}
	v := math.NaN()
	if num != nil {
		v = *num
	}
	if row == len(c.Num) {
		c.Num = append(c.Num, v)
	} else {
		c.Num[row] = v
	}
}

// assembleResult puts the tables in res (the findings table as findings),
// with their full titles, the single-trial shape and the finding that
// trials are missing.
func assembleResult(res *result.Result, st storedSettings, tables map[string]*result.Table, order []string) {
	for _, tn := range order {
		t := tables[tn]
		if tn == findingsTable {
			if c := t.Col("finding"); c != nil {
				res.Findings = c.Text
			}
			continue
		}
		if title, ok := st.titles[tn]; ok {
			t.Title = title
		}
		res.Tables = append(res.Tables, *t)
	}
	if have := len(res.Trials); have < st.savedTrials {
		res.Findings = append([]string{incompleteFinding(st.savedTrials, have)}, res.Findings...)
	}
	_, multi := res.Params["trials"]
	if len(res.Trials) == 1 && (st.shape == "single" || (st.shape == "" && !multi && res.Analysis != "compare")) {
		res.Trial, res.Trials = res.Trials[0], nil
	}
}

// Results lists the stored results, newest first. On a database without
// taudb-analyze's tables (one only TAU's tools wrote) it lists what TAU's
// tables hold (see resultsTAU). A result whose trials were deleted since it
// was saved (by TAU's tools, say) has MissingTrials > 0.
func (db *DB) Results(ctx context.Context) ([]ResultInfo, error) {
	var out []ResultInfo
	err := db.readTx(ctx, func(r runner) error {
		ours, err := hasTable(ctx, r, db.dialect, "analysis_settings_parameter")
		if err != nil {
			return err
		}
		if !ours {
			out, err = resultsTAU(ctx, r)
			return err
		}
		out, err = resultsOurs(ctx, r)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list results: %w", err)
	}
	return out, nil
}

// resultsOurs lists the results from analysis_settings and taudb-analyze's
// tables.
func resultsOurs(ctx context.Context, r runner) ([]ResultInfo, error) {
	var out []ResultInfo
	byID := map[int64]*ResultInfo{}
	if err := r.query(ctx, `SELECT s.id, COALESCE(a.value, s.method), COALESCE(p.value, ''),
(SELECT COUNT(*) FROM analysis_result r WHERE r.analysis_settings = s.id AND r.description <> 'Findings' AND r.image IS NULL),
COALESCE(k.value, '')
FROM analysis_settings s LEFT JOIN analysis_settings_parameter p ON p.analysis_settings = s.id AND p.name = 'metric'
LEFT JOIN analysis_settings_parameter a ON a.analysis_settings = s.id AND a.name = '_analysis'
LEFT JOIN analysis_settings_parameter k ON k.analysis_settings = s.id AND k.name = '_key'
WHERE `+notViewerRow+`
ORDER BY s.id DESC`, func(scan func(...any) error) error {
		var ri ResultInfo
		var key string
		if err := scan(&ri.ID, &ri.Analysis, &ri.Metric, &ri.Tables, &key); err != nil {
			return err
		}
		ri.MissingTrials = keyTrialCount(key)
		out = append(out, ri)
		return nil
	}); err != nil {
		return nil, err
	}
	for i := range out {
		byID[out[i].ID] = &out[i]
	}
	err := r.query(ctx, `SELECT s.analysis_settings, COALESCE(t.name, '') FROM analysis_settings_trial s JOIN trial t ON t.id = s.trial
ORDER BY s.analysis_settings, s.position`, func(scan func(...any) error) error {
		var id int64
		var name string
		if err := scan(&id, &name); err != nil {
			return err
		}
		if ri := byID[id]; ri != nil {
			ri.Trials = append(ri.Trials, name)
		}
		return nil
	})
	for i := range out {
		// keyTrialCount left the number of trials saved; what is left of
		// them is len(Trials).
		if out[i].MissingTrials -= len(out[i].Trials); out[i].MissingTrials < 0 {
			out[i].MissingTrials = 0
		}
	}
	return out, err
}

// DeleteResult removes a stored result and all its rows, its
// PerfExplorer viewer row (insertViewerSettings) with its pictures too.
func (db *DB) DeleteResult(ctx context.Context, id int64) error {
	return db.inTx(ctx, func(r runner) error {
		if ours, err := hasTable(ctx, r, db.dialect, "analysis_settings_parameter"); err != nil {
			return err
		} else if ours {
			if err := deleteResults(ctx, r, `id IN (`+viewerRows+`)`, strconv.FormatInt(id, 10)); err != nil {
				return err
			}
		}
		return deleteResults(ctx, r, `id = $1`, id)
	})
}

// deleteResults removes the results whose analysis_settings rows match
// where (a condition on analysis_settings with one argument). TAUdb's
// analysis_result has no foreign key to analysis_settings, so its rows are
// deleted explicitly; our tables cascade from theirs.
func deleteResults(ctx context.Context, r runner, where string, arg any) error {
	sel := `SELECT id FROM analysis_settings WHERE ` + where
	if _, err := r.execArgs(ctx, `DELETE FROM analysis_result WHERE analysis_settings IN (`+sel+`)`, arg); err != nil {
		return fmt.Errorf("delete analysis results: %w", err)
	}
	if _, err := r.execArgs(ctx, `DELETE FROM analysis_settings WHERE `+where, arg); err != nil {
		return fmt.Errorf("delete analysis settings: %w", err)
	}
	return nil
}
