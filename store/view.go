package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TAUdb views (tables taudb_view and taudb_view_parameter) organize trials
// into a tree of named filters. This file reads, creates and applies them
// with the semantics of TAU's own code (perfdmf View.getTrialsForTAUdbView
// and the View Creator's ViewRule):
//
//   - the parameters of one view are joined by the view's conjoin, "and" or
//     "or"; a sub-view selects the trials its parent selects AND its own
//     condition, recursively up to the root (TAU passes the view with its
//     ancestors and joins their conditions with "and");
//   - a parameter on table "trial" compares the trial column column_name with
//     value, as SQL compares the column with a string literal: the integer
//     columns numerically, name as text;
//   - a parameter on "primary_metadata" or "secondary_metadata" compares the
//     value of the metadata rows named column_name (TAU's LEFT OUTER JOIN on
//     trial and name) as text: a trial without such a row never matches, not
//     even "!=" or "not like" (NULL in SQL), and with several rows
//     (secondary_metadata per thread) one matching row is enough;
//   - the operators are those the View Creator writes: =, !=, <, >, <=, >=
//     (a numeric range is stored as >= and <=), like and not like (with %
//     wildcards), plus SQL's <> for !=.
//
// ViewTrials evaluates the conditions in Go over the trial columns and the
// metadata rows the parameters name, read with fixed, parameterized
// statements: no text of a view ever becomes SQL. Text comparisons are
// byte-wise (the C collation), and like follows PostgreSQL: case-sensitive,
// % any run of characters, _ one character, \ escapes the next.
//
// Where TAU's SQL would misbehave, ViewTrials does the sensible thing: the
// conditions are parenthesized (an "or" view under an "and" parent does not
// leak), and a view without parameters imposes no condition (TAU's loop
// stops at it). CreateView nevertheless requires at least one parameter, as
// TAU's schema comment says sub-views of a view without one do not work in
// TAU's tools.

// ErrNoView is wrapped by the errors of FindView and ViewTrials when the view
// asked for does not exist.
var ErrNoView = errors.New("no such view")

// ErrBadView is wrapped by CreateView's error when the view is invalid, and
// by ViewTrials' when a stored view holds a parameter it cannot apply.
var ErrBadView = errors.New("invalid view")

// View is one row of taudb_view with its parameters.
type View struct {
	// ID is taudb_view.id.
	ID int64 `json:"id"`
	// Parent is the parent view's id, 0 for a top-level view.
	Parent int64 `json:"parent"`
	// Name is the view's name.
	Name string `json:"name"`
	// Conjoin joins the parameters: "and" or "or".
	Conjoin string `json:"conjoin"`
	// Params are the view's conditions (taudb_view_parameter rows).
	Params []ViewParam `json:"params"`
}

// ViewParam is one condition of a view, a taudb_view_parameter row.
type ViewParam struct {
	// Table is "trial", "primary_metadata" or "secondary_metadata".
	Table string `json:"table"`
	// Column is the trial column, or the metadata name, compared.
	Column string `json:"column"`
	// Operator is one of =, !=, <>, <, >, <=, >=, like, not like.
	Operator string `json:"operator"`
	// Value is what the column is compared with.
	Value string `json:"value"`
}

// String gives the parameter as "TABLE.COLUMN OP VALUE".
func (p ViewParam) String() string {
	return p.Table + "." + p.Column + " " + p.Operator + " " + p.Value
}

// ParseViewParam reads a parameter written "TABLE.COLUMN OP VALUE", as in
// "primary_metadata.Application = matmult" or "trial.total_threads >= 4".
// The column ends at the first space; the operator is the longest one the
// text then starts with ("not like" before "<=" before "<"); the value is the
// rest, trimmed. It checks only the shape: CreateView validates the rest.
func ParseViewParam(s string) (ViewParam, error) {
	s = strings.TrimSpace(s)
	table, rest, ok := strings.Cut(s, ".")
	if !ok || table == "" {
		return ViewParam{}, fmt.Errorf("%w: parameter %q: want TABLE.COLUMN OP VALUE", ErrBadView, s)
	}
	// The column ends where an operator begins, after a space or directly
	// ("total_threads>=4").
	col := rest
	var op, val string
	for i := 0; i < len(rest); i++ {
		if o := opAt(rest[i:], i > 0 && rest[i-1] == ' '); o != "" {
			col, op, val = rest[:i], strings.ToLower(o), rest[i+len(o):]
			break
		}
	}
	col = strings.TrimSpace(col)
	if op == "" {
		for _, f := range strings.Fields(rest) {
			if strings.Trim(f, "~!@#$%^&*-+=<>?/|") == "" {
				return ViewParam{}, fmt.Errorf("%w: parameter %q: unknown operator %q: want one of %s", ErrBadView, s, f, strings.Join(viewOperators, ", "))
			}
		}
	}
	if op == "" || col == "" {
		return ViewParam{}, fmt.Errorf("%w: parameter %q: want TABLE.COLUMN OP VALUE, OP one of %s", ErrBadView, s, strings.Join(viewOperators, ", "))
	}
	return ViewParam{Table: strings.TrimSpace(table), Column: col, Operator: op, Value: strings.TrimSpace(val)}, nil
}

// opAt returns the operator s starts with, "" if none. The word operators
// (like, not like) count only after a space and before one.
func opAt(s string, afterSpace bool) string {
	for _, o := range []string{"not like", "like"} {
		if afterSpace && len(s) > len(o) && strings.EqualFold(s[:len(o)], o) && s[len(o)] == ' ' {
			return s[:len(o)]
		}
	}
	for _, o := range []string{"<=", ">=", "!=", "<>", "=", "<", ">"} {
		if strings.HasPrefix(s, o) {
			return o
		}
	}
	return ""
}

// viewOperators are the operators a view parameter may use.
var viewOperators = []string{"=", "!=", "<>", "<", ">", "<=", ">=", "like", "not like"}

// trialIntColumns are the integer columns of table trial a view may compare;
// name is the one text column.
var trialIntColumns = []string{"id", "data_source", "node_count", "contexts_per_node", "threads_per_context", "total_threads"}

// viewTables are the tables a view parameter may name.
var viewTables = []string{"trial", "primary_metadata", "secondary_metadata"}

// checkParam validates p (normalized: lower-case table and operator) and
// returns it normalized.
func checkParam(p ViewParam) (ViewParam, error) {
	p.Table = strings.ToLower(strings.TrimSpace(p.Table))
	p.Operator = strings.ToLower(strings.Join(strings.Fields(p.Operator), " "))
	if !slices.Contains(viewTables, p.Table) {
		return p, fmt.Errorf("%w: parameter %q: table %q: want trial, primary_metadata or secondary_metadata", ErrBadView, p, p.Table)
	}
	if !slices.Contains(viewOperators, p.Operator) {
		return p, fmt.Errorf("%w: parameter %q: unknown operator %q: want one of %s", ErrBadView, p, p.Operator, strings.Join(viewOperators, ", "))
	}
	if p.Column == "" {
		return p, fmt.Errorf("%w: parameter %q: empty column", ErrBadView, p)
	}
	if p.Table != "trial" {
		return p, nil
	}
	p.Column = strings.ToLower(p.Column)
	if p.Column == "name" {
		return p, nil
	}
	if !slices.Contains(trialIntColumns, p.Column) {
		return p, fmt.Errorf("%w: parameter %q: trial has no column %q: want name, %s", ErrBadView, p, p.Column, strings.Join(trialIntColumns, ", "))
	}
	if p.Operator == "like" || p.Operator == "not like" {
		return p, fmt.Errorf("%w: parameter %q: %s compares text, and trial.%s is an integer", ErrBadView, p, p.Operator, p.Column)
	}
	if _, err := strconv.ParseInt(strings.TrimSpace(p.Value), 10, 64); err != nil {
		return p, fmt.Errorf("%w: parameter %q: trial.%s is an integer, and %q is not one", ErrBadView, p, p.Column, p.Value)
	}
	return p, nil
}

// Views lists the views of the database in id order, with their
// parameters.
func (db *DB) Views(ctx context.Context) ([]View, error) {
	var out []View
	err := db.readTx(ctx, func(r runner) error {
		var err error
		out, err = readViews(ctx, r)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list views: %w", err)
	}
	return out, nil
}

// readViews reads every view and its parameters through r.
func readViews(ctx context.Context, r runner) ([]View, error) {
	var out []View
	at := map[int64]int{}
	if err := r.query(ctx, `SELECT id, COALESCE(parent, 0), name, conjoin FROM taudb_view ORDER BY id`,
		func(scan func(...any) error) error {
			var v View
			if err := scan(&v.ID, &v.Parent, &v.Name, &v.Conjoin); err != nil {
				return err
			}
			at[v.ID] = len(out)
			out = append(out, v)
			return nil
		}); err != nil {
		return nil, fmt.Errorf("read taudb_view: %w", err)
	}
	if err := r.query(ctx, `SELECT taudb_view, table_name, column_name, operator, value FROM taudb_view_parameter ORDER BY taudb_view`,
		func(scan func(...any) error) error {
			var id int64
			var p ViewParam
			if err := scan(&id, &p.Table, &p.Column, &p.Operator, &p.Value); err != nil {
				return err
			}
			if i, ok := at[id]; ok {
				out[i].Params = append(out[i].Params, p)
			}
			return nil
		}); err != nil {
		return nil, fmt.Errorf("read taudb_view_parameter: %w", err)
	}
	return out, nil
}

// CreateView stores v (its ID ignored) with its parameters in one
// transaction and returns the new view's id. The name must not be empty,
// the conjoin is "and" or "or" ("" means "and"), the parent (when not 0)
// must exist, and there must be at least one parameter, each on table
// trial (columns name, id, data_source, node_count, contexts_per_node,
// threads_per_context, total_threads; integer columns compared with an
// integer and not with like), primary_metadata or secondary_metadata, with
// an operator among =, !=, <>, <, >, <=, >=, like, not like. An invalid view
// gives an error wrapping ErrBadView, and nothing is stored.
func (db *DB) CreateView(ctx context.Context, v View) (int64, error) {
	v.Name = strings.TrimSpace(v.Name)
	if v.Name == "" {
		return 0, fmt.Errorf("create view: %w: empty name", ErrBadView)
	}
	v.Conjoin = strings.ToLower(strings.TrimSpace(v.Conjoin))
	if v.Conjoin == "" {
		v.Conjoin = "and"
	}
	if v.Conjoin != "and" && v.Conjoin != "or" {
		return 0, fmt.Errorf("create view %q: %w: conjoin %q: want and or or", v.Name, ErrBadView, v.Conjoin)
	}
	if v.Parent < 0 {
		return 0, fmt.Errorf("create view %q: %w: parent %d", v.Name, ErrBadView, v.Parent)
	}
	if len(v.Params) == 0 {
		return 0, fmt.Errorf("create view %q: %w: no parameter (TAU's tools need at least one)", v.Name, ErrBadView)
	}
	params := make([]ViewParam, len(v.Params))
	for i, p := range v.Params {
		q, err := checkParam(p)
		if err != nil {
			return 0, fmt.Errorf("create view %q: %w", v.Name, err)
		}
		params[i] = q
	}
	var id int64
	err := db.inTx(ctx, func(r runner) error {
		var parent any // NULL for a top-level view
		if v.Parent != 0 {
			found := false
			if err := r.query(ctx, `SELECT id FROM taudb_view WHERE id = $1`, func(scan func(...any) error) error {
				found = true
				var x int64
				return scan(&x)
			}, v.Parent); err != nil {
				return fmt.Errorf("find the parent view: %w", err)
			}
			if !found {
				return fmt.Errorf("%w: parent view %d does not exist", ErrBadView, v.Parent)
			}
			parent = v.Parent
		}
		if err := r.query(ctx, `INSERT INTO taudb_view (parent, name, conjoin) VALUES ($1, $2, $3) RETURNING id`,
			func(scan func(...any) error) error { return scan(&id) }, parent, v.Name, v.Conjoin); err != nil {
			return fmt.Errorf("insert into taudb_view: %w", err)
		}
		for _, p := range params {
			if _, err := r.execArgs(ctx, `INSERT INTO taudb_view_parameter (taudb_view, table_name, column_name, operator, value) VALUES ($1, $2, $3, $4, $5)`,
				id, p.Table, p.Column, p.Operator, p.Value); err != nil {
				return fmt.Errorf("insert into taudb_view_parameter: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("create view %q: %w", v.Name, err)
	}
	return id, nil
}

// FindView returns the id of the view ref names: a view id, or else the
// name of exactly one view. An unknown ref gives an error wrapping
// ErrNoView; a name several views bear gives an error listing their ids.
func (db *DB) FindView(ctx context.Context, ref string) (int64, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return 0, fmt.Errorf("find view: %w: empty view name", ErrNoView)
	}
	r, err := db.runner()
	if err != nil {
		return 0, err
	}
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		found := false
		if err := r.query(ctx, `SELECT id FROM taudb_view WHERE id = $1`, func(scan func(...any) error) error {
			found = true
			return scan(&id)
		}, id); err != nil {
			return 0, fmt.Errorf("find view %s: %w", ref, err)
		}
		if found {
			return id, nil
		}
	}
	var ids []string
	var id int64
	if err := r.query(ctx, `SELECT id FROM taudb_view WHERE name = $1 ORDER BY id`, func(scan func(...any) error) error {
		if err := scan(&id); err != nil {
			return err
		}
		ids = append(ids, strconv.FormatInt(id, 10))
		return nil
	}, ref); err != nil {
		return 0, fmt.Errorf("find view %q: %w", ref, err)
	}
	switch len(ids) {
	case 0:
		return 0, fmt.Errorf("%w: no view has the id or name %q (list them with \"taudb-analyze views\")", ErrNoView, ref)
	case 1:
		return id, nil
	}
	return 0, fmt.Errorf("%d views are named %q (ids %s): name one by its id", len(ids), ref, strings.Join(ids, ", "))
}

// ViewTrials returns the ids, in order, of the trials view id selects: those
// meeting its own condition and its ancestors'. See the comment at the top
// of view.go for the semantics.
func (db *DB) ViewTrials(ctx context.Context, id int64) ([]int64, error) {
	all, err := db.ViewsTrials(ctx)
	if err != nil {
		return nil, err
	}
	ids, ok := all[id]
	if !ok {
		return nil, fmt.Errorf("%w: no view has the id %d", ErrNoView, id)
	}
	return ids, nil
}

// ViewsTrials returns, for every view, the ids of the trials it selects (as
// ViewTrials does), reading the database once.
func (db *DB) ViewsTrials(ctx context.Context) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	err := db.readTx(ctx, func(r runner) error {
		views, err := readViews(ctx, r)
		if err != nil {
			return err
		}
		byID := map[int64]View{}
		for _, v := range views {
			byID[v.ID] = v
		}
		trials, err := readViewTrialRows(ctx, r)
		if err != nil {
			return err
		}
		meta, err := readViewMetadata(ctx, r, views)
		if err != nil {
			return err
		}
		for _, v := range views {
			chain, err := viewChain(v, byID)
			if err != nil {
				return err
			}
			ids := []int64{}
		trial:
			for _, t := range trials {
				for _, c := range chain {
					ok, err := c.matches(t, meta)
					if err != nil {
						return err
					}
					if !ok {
						continue trial
					}
				}
				ids = append(ids, t.id)
			}
			out[v.ID] = ids
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("apply views: %w", err)
	}
	return out, nil
}

// viewChain returns v and its ancestors, checking that the parents exist
// and do not form a cycle.
func viewChain(v View, byID map[int64]View) ([]View, error) {
	chain := []View{v}
	seen := map[int64]bool{v.ID: true}
	for p := v.Parent; p != 0; {
		pv, ok := byID[p]
		if !ok {
			return nil, fmt.Errorf("%w: view %d %q: parent view %d does not exist", ErrBadView, v.ID, v.Name, p)
		}
		if seen[p] {
			return nil, fmt.Errorf("%w: view %d %q: its parents form a cycle", ErrBadView, v.ID, v.Name)
		}
		seen[p] = true
		chain = append(chain, pv)
		p = pv.Parent
	}
	return chain, nil
}

// viewTrialRow is what a view may compare of one trial.
type viewTrialRow struct {
	id   int64
	name *string
	ints map[string]*int64
}

// readViewTrialRows reads the columns of every trial a view may compare.
func readViewTrialRows(ctx context.Context, r runner) ([]viewTrialRow, error) {
	var out []viewTrialRow
	err := r.query(ctx, `SELECT id, name, data_source, node_count, contexts_per_node, threads_per_context, total_threads FROM trial ORDER BY id`,
		func(scan func(...any) error) error {
			var t viewTrialRow
			var ds, nc, cpn, tpc, tt *int64
			if err := scan(&t.id, &t.name, &ds, &nc, &cpn, &tpc, &tt); err != nil {
				return err
			}
			id := t.id
			t.ints = map[string]*int64{"id": &id, "data_source": ds, "node_count": nc,
				"contexts_per_node": cpn, "threads_per_context": tpc, "total_threads": tt}
			out = append(out, t)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read trial: %w", err)
	}
	return out, nil
}

// metaKey names the metadata rows of one name in one metadata table.
type metaKey struct{ table, name string }

// viewMetadata holds, per metadata table and name, each trial's values.
type viewMetadata map[metaKey]map[int64][]string

// metadataQueries read the values of one metadata name, per trial; the
// table comes from this fixed map, never from a view's text.
var metadataQueries = map[string]string{
	"primary_metadata":   `SELECT trial, value FROM primary_metadata WHERE name = $1 AND value IS NOT NULL`,
	"secondary_metadata": `SELECT trial, value FROM secondary_metadata WHERE name = $1 AND value IS NOT NULL`,
}

// readViewMetadata reads the metadata values the views' parameters name.
func readViewMetadata(ctx context.Context, r runner, views []View) (viewMetadata, error) {
	out := viewMetadata{}
	for _, v := range views {
		for _, p := range v.Params {
			k := metaKey{strings.ToLower(p.Table), p.Column}
			q, ok := metadataQueries[k.table]
			if !ok {
				continue
			}
			if _, done := out[k]; done {
				continue
			}
			vals := map[int64][]string{}
			if err := r.query(ctx, q, func(scan func(...any) error) error {
				var id int64
				var s string
				if err := scan(&id, &s); err != nil {
					return err
				}
				vals[id] = append(vals[id], s)
				return nil
			}, p.Column); err != nil {
				return nil, fmt.Errorf("read %s %q: %w", k.table, k.name, err)
			}
			out[k] = vals
		}
	}
	return out, nil
}

// matches reports whether trial t meets v's own condition (not its
// parents').
func (v View) matches(t viewTrialRow, meta viewMetadata) (bool, error) {
	if len(v.Params) == 0 {
		return true, nil
	}
	or := false
	switch strings.ToLower(strings.TrimSpace(v.Conjoin)) {
	case "and":
	case "or":
		or = true
	default:
		return false, fmt.Errorf("%w: view %d %q: conjoin %q: want and or or", ErrBadView, v.ID, v.Name, v.Conjoin)
	}
	for _, p := range v.Params {
		ok, err := p.matches(t, meta)
		if err != nil {
			return false, fmt.Errorf("view %d %q: %w", v.ID, v.Name, err)
		}
		if ok == or {
			return ok, nil // the first true of an "or", the first false of an "and"
		}
	}
	return !or, nil
}

// matches reports whether trial t meets condition p.
func (p ViewParam) matches(t viewTrialRow, meta viewMetadata) (bool, error) {
	q, err := checkParam(p)
	if err != nil {
		return false, err
	}
	if q.Table == "trial" {
		if q.Column == "name" {
			if t.name == nil {
				return false, nil
			}
			return compareText(*t.name, q.Operator, q.Value), nil
		}
		v := t.ints[q.Column]
		if v == nil {
			return false, nil // NULL
		}
		want, _ := strconv.ParseInt(strings.TrimSpace(q.Value), 10, 64) // checked by checkParam
		return compareOrdered(*v, want, q.Operator), nil
	}
	for _, s := range meta[metaKey{q.Table, p.Column}][t.id] {
		if compareText(s, q.Operator, q.Value) {
			return true, nil
		}
	}
	return false, nil
}

// compareText applies a text operator, byte-wise.
func compareText(s, op, val string) bool {
	switch op {
	case "like":
		return likeMatch(s, val)
	case "not like":
		return !likeMatch(s, val)
	}
	return compareOrdered(s, val, op)
}

// compareOrdered applies a comparison operator (not like).
func compareOrdered[T int64 | string](a, b T, op string) bool {
	switch op {
	case "=":
		return a == b
	case "!=", "<>":
		return a != b
	case "<":
		return a < b
	case ">":
		return a > b
	case "<=":
		return a <= b
	case ">=":
		return a >= b
	}
	return false
}

// likeMatch reports whether s matches the SQL LIKE pattern pat, as
// PostgreSQL does: case-sensitive, % any run of characters, _ one
// character, \ makes the next character literal.
func likeMatch(s, pat string) bool {
	sr, pr := []rune(s), []rune(pat)
	// memo[i][j]: whether sr[i:] matches pr[j:] is known (1 no, 2 yes).
	memo := make([][]uint8, len(sr)+1)
	for i := range memo {
		memo[i] = make([]uint8, len(pr)+1)
	}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if memo[i][j] != 0 {
			return memo[i][j] == 2
		}
		var ok bool
		switch {
		case j == len(pr):
			ok = i == len(sr)
		case pr[j] == '%':
			ok = match(i, j+1) || (i < len(sr) && match(i+1, j))
		case pr[j] == '_':
			ok = i < len(sr) && match(i+1, j+1)
		case pr[j] == '\\' && j+1 < len(pr):
			ok = i < len(sr) && sr[i] == pr[j+1] && match(i+1, j+2)
		default:
			ok = i < len(sr) && sr[i] == pr[j] && match(i+1, j+1)
		}
		memo[i][j] = 1
		if ok {
			memo[i][j] = 2
		}
		return ok
	}
	return match(0, 0)
}
