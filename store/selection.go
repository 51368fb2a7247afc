package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Selection says which trials a multi-trial analysis takes: trial
// references, a where expression over the trials' fields and metadata, a
// TAUdb view, or several of them (the trials all of them select). A
// Selection with none of the three is the default: every trial of the
// database when they all belong to one application.
type Selection struct {
	// Trials are trial references as FindTrial takes them: an id, a name,
	// "id:N" or "name:X". Blank ones are skipped; a trial named twice
	// counts once. The result keeps their order.
	Trials []string
	// Where is an expression (expr-lang syntax, boolean) over WhereEnv:
	// id, name, application, experiment, threads (total_threads), metrics
	// (the metric names), meta (the trial metadata as strings,
	// meta["CPU Cores"]) and num(s), the leading number of a string
	// ("150 W" gives 150). Its bounds are MaxWhereBytes and kin.
	Where string
	// View is a TAUdb view by id or name, as FindView takes it.
	View string
	// Minimum is the least number of trials the selection must hold.
	Minimum int
}

// IsDefault reports whether s names no trial, no expression and no view,
// so that SelectTrials applies the default rule.
func (s Selection) IsDefault() bool { return len(s.Trials) == 0 && s.Where == "" && s.View == "" }

// MixedApplicationsError is SelectTrials' error for a default selection
// (IsDefault) on a database whose trials belong to several applications:
// the caller must choose. Applications lists them in trial id order.
type MixedApplicationsError struct {
	Applications []string
}

func (e *MixedApplicationsError) Error() string {
	return fmt.Sprintf("the database holds trials of %d applications (%s): choose the trials by id or name, a where expression or a view",
		len(e.Applications), quoteAll(e.Applications))
}

// quoteAll writes names as `"a", "b"`.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// SelectTrials resolves s to the trials it selects: in the order of
// s.Trials when given, in id order otherwise. The where expression runs on
// the candidate trials (those the references and the view select, or all)
// with their metadata read in one query, whatever their number. Errors:
// those of FindTrial and FindView for unknown references, *WhereError for
// an expression that does not compile or fails, *MixedApplicationsError for
// a default selection over several applications, and plain errors for an
// empty database or fewer than s.Minimum trials.
func (db *DB) SelectTrials(ctx context.Context, s Selection) ([]TrialInfo, error) {
	all, err := db.Trials(ctx)
	if err != nil {
		return nil, err
	}
	if s.IsDefault() {
		return db.defaultSelection(all, s.Minimum)
	}
	ids, err := db.selectIDs(ctx, s, all)
	if err != nil {
		return nil, err
	}
	if len(ids) < s.Minimum {
		return nil, fmt.Errorf("the selection holds %d trial(s); this analysis needs at least %d", len(ids), s.Minimum)
	}
	byID := make(map[int64]TrialInfo, len(all))
	for _, ti := range all {
		byID[ti.ID] = ti
	}
	out := make([]TrialInfo, 0, len(ids))
	for _, id := range ids {
		out = append(out, byID[id])
	}
	return out, nil
}

// selectIDs applies the references, then the view, then the expression of
// a non-default selection.
func (db *DB) selectIDs(ctx context.Context, s Selection, all []TrialInfo) ([]int64, error) {
	var ids []int64
	named := len(s.Trials) > 0
	if named {
		var err error
		if ids, err = db.findTrials(ctx, s.Trials); err != nil {
			return nil, err
		}
	}
	if s.View != "" {
		vid, err := db.FindView(ctx, s.View)
		if err != nil {
			return nil, err
		}
		vids, err := db.ViewTrials(ctx, vid)
		if err != nil {
			return nil, err
		}
		if named {
			ids = intersect(ids, vids)
		} else {
			ids = vids
		}
	}
	if s.Where == "" {
		return ids, nil
	}
	prog, err := compileWhere(s.Where)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]TrialInfo, len(all))
	for _, ti := range all {
		byID[ti.ID] = ti
	}
	if !named && s.View == "" {
		ids = make([]int64, len(all))
		for i, ti := range all {
			ids[i] = ti.ID
		}
	}
	return db.evalWhere(ctx, prog, byID, ids)
}

// findTrials resolves references in order, skipping blank ones and
// repeats.
func (db *DB) findTrials(ctx context.Context, refs []string) ([]int64, error) {
	var ids []int64
	seen := map[int64]bool{}
	for _, ref := range refs {
		if strings.TrimSpace(ref) == "" {
			continue
		}
		id, err := db.FindTrial(ctx, ref)
		if err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// intersect returns the ids of a that b holds too, in a's order.
func intersect(a, b []int64) []int64 {
	in := make(map[int64]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	var out []int64
	for _, id := range a {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}

// defaultSelection is the selection when none is given: every trial when
// they all belong to one application (the usual case of a database
// holding one study).
func (db *DB) defaultSelection(all []TrialInfo, minimum int) ([]TrialInfo, error) {
	seen := map[string]bool{}
	var apps []string
	for _, ti := range all {
		if !seen[ti.Application] {
			seen[ti.Application] = true
			apps = append(apps, ti.Application)
		}
	}
	switch {
	case len(all) == 0:
		return nil, fmt.Errorf("the database %s holds no trial; load some with \"taudb-analyze load\"", db.URL())
	case len(apps) > 1:
		return nil, &MixedApplicationsError{Applications: apps}
	case len(all) < minimum:
		return nil, fmt.Errorf("the database holds %d trial(s); this analysis needs at least %d", len(all), minimum)
	}
	return all, nil
}
