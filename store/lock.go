package store

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
)

// ErrNameTaken is wrapped (errors.Is) by the error of a save refused
// because the name is taken: a trial name (SaveOptions.IfExists =
// NameRefuse) or a metric name within a trial (SaveMetric). The error is a
// *NameTakenError.
var ErrNameTaken = errors.New("name taken")

// NameTakenError says which stored row already bears a name that a save
// must not repeat.
type NameTakenError struct {
	// Kind is "trial" or "metric".
	Kind string
	// Name is the name asked for.
	Name string
	// ID is the id of the stored trial or metric of that name.
	ID int64
	// Trial is the trial a metric belongs to (0 for a trial).
	Trial int64
}

// Error says what exists: `a trial named "x" exists already (id 3)` or
// `trial 3 already has a metric named "T9" (id 12)`.
func (e *NameTakenError) Error() string {
	if e.Kind == "metric" {
		return fmt.Sprintf("trial %d already has a metric named %q (id %d)", e.Trial, e.Name, e.ID)
	}
	return fmt.Sprintf("a %s named %q exists already (id %d)", e.Kind, e.Name, e.ID)
}

// Is makes errors.Is(err, ErrNameTaken) true.
func (e *NameTakenError) Is(target error) bool { return target == ErrNameTaken }

// nameLockKey is the PostgreSQL advisory lock key of a name in a scope: a
// 64-bit FNV-1a hash of the scope and the name. Two keys collide with
// probability 2⁻⁶⁴; a collision only makes two unrelated saves wait for one
// another.
func nameLockKey(scope, name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(scope))
	h.Write([]byte{0})
	h.Write([]byte(name))
	return int64(h.Sum64())
}

// lockNames serializes, until the transaction ends, the savers of the same
// names in a scope ("trial" for trial names, "metric/ID" for the metric
// names of trial ID), so that "is the name free?" and "insert it" happen as
// one step. On PostgreSQL it takes a transaction-level advisory lock per
// name (pg_advisory_xact_lock), in sorted key order so that two savers of
// overlapping name sets cannot deadlock; on SQLite the transaction already
// holds the database's only write lock (BEGIN IMMEDIATE) and there is
// nothing to take.
func (db *DB) lockNames(ctx context.Context, r runner, scope string, names ...string) error {
	if db.dialect != Postgres || len(names) == 0 {
		return nil
	}
	keys := make([]int64, 0, len(names))
	for _, n := range names {
		keys = append(keys, nameLockKey(scope, n))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if err := r.query(ctx, `SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k`,
		func(scan func(...any) error) error { return nil }, keys); err != nil {
		return fmt.Errorf("lock the name(s) %q: %w", names, err)
	}
	return nil
}

// trialNamed returns the smallest id of a trial named name, or 0, as the
// transaction of r sees the database. Called after lockNames, it sees every
// trial of that name committed by the lock's earlier holders (PostgreSQL's
// READ COMMITTED gives each statement a new snapshot).
func trialNamed(ctx context.Context, r runner, name string) (int64, error) {
	var id int64
	if err := r.query(ctx, `SELECT id FROM trial WHERE name = $1 ORDER BY id LIMIT 1`,
		func(scan func(...any) error) error { return scan(&id) }, name); err != nil {
		return 0, fmt.Errorf("look for a trial named %q: %w", name, err)
	}
	return id, nil
}

// The queries of lockTrials: on PostgreSQL a row lock of one of two
// strengths (FOR SHARE for savers, several of which may hold it at once;
// FOR UPDATE for DeleteTrial, which waits for every saver holding FOR SHARE
// and keeps new ones out), on SQLite a plain read.
const (
	lockTrialsShare  = `SELECT id FROM trial WHERE id = ANY($1::bigint[]) ORDER BY id FOR SHARE`
	lockTrialsUpdate = `SELECT id FROM trial WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`
	lockTrialsSQLite = `SELECT id FROM trial WHERE id IN (SELECT value FROM json_each($1)) ORDER BY id`
)

// lockTrials locks the trial rows ids, in id order, until the transaction
// ends (exclusively when forDelete), and fails with an error wrapping
// ErrNoTrial naming the first id that does not exist (any more). This is how a save of rows that belong
// to trials (a result, a metric) and DeleteTrial serialize: whichever locks
// first finishes first, and a save that comes second finds the trial gone
// and writes nothing. On PostgreSQL the lock is a row lock of the given
// strength (a row deleted by the transaction the lock waited for is not
// returned); on SQLite the transaction holds the write lock already and
// this only checks that the trials exist.
func (db *DB) lockTrials(ctx context.Context, r runner, forDelete bool, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	want := slices.Clone(ids)
	slices.Sort(want)
	want = slices.Compact(want)
	found := make(map[int64]bool, len(want))
	q, arg := lockTrialsSQLite, any(jsonIDs(want))
	if db.dialect == Postgres {
		q, arg = lockTrialsShare, want
		if forDelete {
			q = lockTrialsUpdate
		}
	}
	if err := r.query(ctx, q, func(scan func(...any) error) error {
		var id int64
		if err := scan(&id); err != nil {
			return err
		}
		found[id] = true
		return nil
	}, arg); err != nil {
		return fmt.Errorf("lock trial(s) %v: %w", want, err)
	}
	for _, id := range ids {
		if !found[id] {
			return fmt.Errorf("%w: %d (deleted meanwhile?)", ErrNoTrial, id)
		}
	}
	return nil
}

// jsonIDs writes ids as a JSON array, SQLite's json_each parameter.
func jsonIDs(ids []int64) string {
	b := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", id)
	}
	return string(append(b, ']'))
}
