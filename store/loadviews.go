package store

import (
	"context"
	"fmt"
)

// The views SaveTrial creates for a trial saved with an application (and
// an experiment), as TAU's taudb_loadtrial -a APP -x EXP does, so that the
// trial shows in ParaProf's and PerfExplorer's view tree under its
// application and experiment, not only under "All Trials":
//
//   - a top-level view named AppViewPrefix+APP (conjoin "and") with the
//     parameter primary_metadata.Application = APP;
//   - under it, a view named ExpViewPrefix+EXP with the parameter
//     primary_metadata.Experiment = EXP.
//
// A view of that name, parent and parameter already there is reused, so
// loading many trials of one application and experiment creates the pair
// once. The views go in the trial's own transaction.
const (
	AppViewPrefix = "Application-"
	ExpViewPrefix = "Experiment-"
)

// loadViewLockKey is the PostgreSQL advisory lock that serializes the
// creation of load views by concurrent saves (an arbitrary constant,
// distinct from the other locks: it is held until the save commits, and
// sharing saveLockKey made every save wait there to reserve its ids).
const loadViewLockKey = 7_305_268_131_926_466_214

// ensureLoadViews creates, through r (in the save's transaction), the
// application view of app and the experiment view of exp under it, unless
// they exist. Nothing is done when app is "": TAU's loader needs an
// application to file an experiment under.
func ensureLoadViews(ctx context.Context, r runner, d Dialect, app, exp string) error {
	if app == "" {
		return nil
	}
	if d == Postgres {
		if err := r.exec(ctx, fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", int64(loadViewLockKey))); err != nil {
			return fmt.Errorf("lock the views: %w", err)
		}
	}
	parent, err := ensureLoadView(ctx, r, 0, AppViewPrefix+app, ApplicationKey, app)
	if err != nil || exp == "" {
		return err
	}
	_, err = ensureLoadView(ctx, r, parent, ExpViewPrefix+exp, ExperimentKey, exp)
	return err
}

// ensureLoadView returns the id of the view named name under parent (0: a
// top-level view) whose parameter is primary_metadata.key = value, creating
// it when there is none.
func ensureLoadView(ctx context.Context, r runner, parent int64, name, key, value string) (int64, error) {
	var id int64
	err := r.query(ctx, `SELECT v.id FROM taudb_view v JOIN taudb_view_parameter p ON p.taudb_view = v.id
WHERE v.name = $1 AND COALESCE(v.parent, 0) = $2 AND p.table_name = 'primary_metadata' AND p.column_name = $3
  AND p.operator = '=' AND p.value = $4 ORDER BY v.id LIMIT 1`,
		func(scan func(...any) error) error { return scan(&id) }, name, parent, key, value)
	if err != nil {
		return 0, fmt.Errorf("find view %q: %w", name, err)
	}
	if id != 0 {
		return id, nil
	}
	var p any // NULL for a top-level view
	if parent != 0 {
		p = parent
	}
	if err := r.query(ctx, `INSERT INTO taudb_view (parent, name, conjoin) VALUES ($1, $2, 'and') RETURNING id`,
		func(scan func(...any) error) error { return scan(&id) }, p, name); err != nil {
		return 0, fmt.Errorf("create view %q: %w", name, err)
	}
	if _, err := r.execArgs(ctx, `INSERT INTO taudb_view_parameter (taudb_view, table_name, column_name, operator, value) VALUES ($1, 'primary_metadata', $2, '=', $3)`,
		id, key, value); err != nil {
		return 0, fmt.Errorf("create the parameter of view %q: %w", name, err)
	}
	return id, nil
}
