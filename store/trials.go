package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrAmbiguousTrial is wrapped by FindTrial's error when several trials
// bear the name asked for.
var ErrAmbiguousTrial = errors.New("ambiguous trial name")

// TrialInfo describes one stored trial, as Trials lists it.
type TrialInfo struct {
	// ID is trial.id.
	ID int64 `json:"id"`
	// Name is trial.name.
	Name string `json:"name"`
	// Application and Experiment are the trial attributes (primary_metadata)
	// of those names, "" when absent.
	Application string `json:"application"`
	Experiment  string `json:"experiment"`
	// Threads is trial.total_threads, the number of real threads.
	Threads int `json:"threads"`
	// Metrics lists the metric names in id order.
	Metrics []string `json:"metrics"`
	// DataSource is trial.data_source (-1 when NULL) and DataSourceName its
	// name in the data_source table ("TAU profiles", "ppk", "SNAP", ...).
	DataSource     int    `json:"data_source"`
	DataSourceName string `json:"data_source_name"`
}

// trialsQuery lists the trials with their Application and Experiment
// attributes and their data source's name.
const trialsQuery = `
SELECT t.id, COALESCE(t.name, ''),
       COALESCE((SELECT MIN(value) FROM primary_metadata p WHERE p.trial = t.id AND p.name = $1), ''),
       COALESCE((SELECT MIN(value) FROM primary_metadata p WHERE p.trial = t.id AND p.name = $2), ''),
       COALESCE(t.total_threads, 0), COALESCE(t.data_source, -1), COALESCE(ds.name, '')
FROM trial t
LEFT JOIN data_source ds ON ds.id = t.data_source
ORDER BY t.id`

// trialMetricsQuery lists every trial's metrics in id order.
const trialMetricsQuery = `SELECT trial, name FROM metric ORDER BY trial, id`

// Trials lists the stored trials in id order.
func (db *DB) Trials(ctx context.Context) ([]TrialInfo, error) {
	var out []TrialInfo
	err := db.readTx(ctx, func(r runner) error {
		at := map[int64]int{}
		if err := r.query(ctx, trialsQuery, func(scan func(...any) error) error {
			var ti TrialInfo
			if err := scan(&ti.ID, &ti.Name, &ti.Application, &ti.Experiment, &ti.Threads, &ti.DataSource, &ti.DataSourceName); err != nil {
				return err
			}
			at[ti.ID] = len(out)
			out = append(out, ti)
			return nil
		}, ApplicationKey, ExperimentKey); err != nil {
			return fmt.Errorf("read trial: %w", err)
		}
		return r.query(ctx, trialMetricsQuery, func(scan func(...any) error) error {
			var id int64
			var name string
			if err := scan(&id, &name); err != nil {
				return err
			}
			if i, ok := at[id]; ok {
				out[i].Metrics = append(out[i].Metrics, name)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list trials: %w", err)
	}
	return out, nil
}

// FindTrial returns the id of the trial ref names: "id:N" a trial id,
// "name:X" the name of exactly one trial, and a bare token either, when it
// is not both (a token that is one trial's id and another trial's name is
// ambiguous). An unknown ref gives an error wrapping ErrNoTrial; a name
// several trials bear, or a token that is both an id and a name, one
// wrapping ErrAmbiguousTrial that lists the ids.
func (db *DB) FindTrial(ctx context.Context, ref string) (int64, error) {
	ref = strings.TrimSpace(ref)
	byID, byName := true, true
	switch {
	case strings.HasPrefix(ref, "id:"):
		ref, byName = strings.TrimSpace(ref[3:]), false
	case strings.HasPrefix(ref, "name:"):
		ref, byID = strings.TrimSpace(ref[5:]), false
	}
	if ref == "" {
		return 0, fmt.Errorf("find trial: %w: empty trial name", ErrNoTrial)
	}
	var idHit int64 = -1
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil && byID {
		found, err := db.trialExists(ctx, id)
		if err != nil {
			return 0, fmt.Errorf("find trial %s: %w", ref, err)
		}
		if found {
			idHit = id
		}
	} else if !byName {
		return 0, fmt.Errorf("find trial: %w: id:%s is not a trial id (a whole number)", ErrNoTrial, ref)
	}
	var ids []int64
	if byName {
		var err error
		if ids, err = db.TrialsNamed(ctx, ref); err != nil {
			return 0, fmt.Errorf("find trial: %w", err)
		}
	}
	return pickTrial(ref, idHit, ids)
}

// pickTrial decides what a reference names: the trial with that id (idHit,
// -1 for none), or the trials with that name; a bare token that is both
// one trial's id and another's name is ambiguous, never silently the id.
func pickTrial(ref string, idHit int64, named []int64) (int64, error) {
	if idHit >= 0 && (len(named) == 0 || (len(named) == 1 && named[0] == idHit)) {
		return idHit, nil
	}
	if idHit >= 0 {
		return 0, fmt.Errorf("%w: %q is the id of trial %d and the name of trial(s) %s: say id:%s or name:%s",
			ErrAmbiguousTrial, ref, idHit, joinIDs(named), ref, ref)
	}
	switch len(named) {
	case 0:
		return 0, fmt.Errorf("%w: no trial has the id or name %q (list them with \"taudb-analyze trials\")", ErrNoTrial, ref)
	case 1:
		return named[0], nil
	}
	return 0, fmt.Errorf("%w: %d trials are named %q (ids %s): name one by its id (id:N)", ErrAmbiguousTrial, len(named), ref, joinIDs(named))
}

// joinIDs writes ids as "3, 7".
func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ", ")
}

// trialExists reports whether a trial has the id.
func (db *DB) trialExists(ctx context.Context, id int64) (bool, error) {
	r, err := db.runner()
	if err != nil {
		return false, err
	}
	found := false
	err = r.query(ctx, `SELECT id FROM trial WHERE id = $1`, func(scan func(...any) error) error {
		found = true
		var x int64
		return scan(&x)
	}, id)
	return found, err
}

// TrialsNamed returns the ids of the trials named name, in id order.
func (db *DB) TrialsNamed(ctx context.Context, name string) ([]int64, error) {
	r, err := db.runner()
	if err != nil {
		return nil, err
	}
	var ids []int64
	if err := r.query(ctx, `SELECT id FROM trial WHERE name = $1 ORDER BY id`, func(scan func(...any) error) error {
		var id int64
		if err := scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
		return nil
	}, name); err != nil {
		return nil, fmt.Errorf("find trials named %q: %w", name, err)
	}
	return ids, nil
}
