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

// FindTrial returns the id of the trial ref names: ref is a trial id, or
// else the name of exactly one trial. An unknown ref gives an error
// wrapping ErrNoTrial, a name several trials bear one wrapping
// ErrAmbiguousTrial that lists their ids.
func (db *DB) FindTrial(ctx context.Context, ref string) (int64, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return 0, fmt.Errorf("find trial: %w: empty trial name", ErrNoTrial)
	}
	r, err := db.runner()
	if err != nil {
		return 0, err
	}
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		found := false
		if err := r.query(ctx, `SELECT id FROM trial WHERE id = $1`, func(scan func(...any) error) error {
			found = true
			return scan(&id)
		}, id); err != nil {
			return 0, fmt.Errorf("find trial %s: %w", ref, err)
		}
		if found {
			return id, nil
		}
	}
	ids, err := db.TrialsNamed(ctx, ref)
	if err != nil {
		return 0, fmt.Errorf("find trial: %w", err)
	}
	switch len(ids) {
	case 0:
		return 0, fmt.Errorf("%w: no trial has the id or name %q (list them with \"taudb-analyze trials\")", ErrNoTrial, ref)
	case 1:
		return ids[0], nil
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return 0, fmt.Errorf("%w: %d trials are named %q (ids %s): name one by its id", ErrAmbiguousTrial, len(ids), ref, strings.Join(s, ", "))
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
