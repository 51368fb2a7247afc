package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// NameRule says what a save does when a stored trial already bears the
// name of the trial being saved (SaveOptions.IfExists). TAUdb itself allows
// several trials of one name.
type NameRule int

const (
	// NameAllowDuplicate stores the trial anyway (TAUdb's and TAU's loader's
	// behaviour).
	NameAllowDuplicate NameRule = iota
	// NameRefuse fails with a *NameTakenError (ErrNameTaken) and writes
	// nothing.
	NameRefuse
	// NameReuse stores nothing and returns the stored trial's id (the
	// smallest, if several bear the name), with SavedTrial.Reused set.
	NameReuse
)

// PendingTrial is one trial for SaveTrials: either Trial, already read, or
// Read, which SaveTrials calls when the trial's turn comes (so that only
// one trial of a long list is in memory at a time).
type PendingTrial struct {
	// Trial is the trial to save, when Read is nil.
	Trial *drg.Trial
	// Read reads the trial. Its error is returned as it is, and nothing of
	// any trial of the call is written. With NameReuse and a name given in
	// Options.Name that is taken already, Read is not called.
	Read func() (*drg.Trial, error)
	// Chunks, when Trial and Read are nil, reads the trial a run of threads
	// at a time, and each chunk is written as it is read: memory holds two
	// chunks, not the trial (see chunkedSave). Only the partitioned
	// PostgreSQL layout takes it (Layout); elsewhere the save fails with
	// ErrChunksNeedPartitions before anything is read.
	Chunks TrialChunks
	// Options name and file the trial, as for SaveTrial.
	Options SaveOptions
}

// SavedTrial is what SaveTrials did with one trial.
type SavedTrial struct {
	// ID is the trial's id: the new trial's, or the stored one's when Reused.
	ID int64
	// Name is the trial's name.
	Name string
	// Reused is true when a stored trial of that name was kept instead
	// (NameReuse) and nothing was written.
	Reused bool
}

// SaveTrials saves several trials in one transaction: either all of them
// are stored (or, with NameReuse, found) or, if any read or save fails,
// none is. Each is written as SaveTrial writes it.
//
// Names are checked inside the transaction, after a lock on the name is
// taken (a PostgreSQL advisory lock keyed by the name; on SQLite the
// transaction holds the only write lock): of two concurrent savers of one
// name with NameRefuse or NameReuse, the second waits for the first to end
// and then sees its trial, so that one name never gets two trials.
func (db *DB) SaveTrials(ctx context.Context, trials []PendingTrial) ([]SavedTrial, error) {
	for i, pt := range trials {
		if pt.Trial == nil && pt.Read == nil && pt.Chunks == nil {
			return nil, fmt.Errorf("save trials: trial %d: nil trial", i+1)
		}
	}
	switch {
	case db.pool != nil:
		return db.savePostgres(ctx, trials)
	case db.sqlDB != nil:
		return db.saveSQLite(ctx, trials)
	}
	return nil, fmt.Errorf("save trials: %s: the database is closed", db.display)
}

// readError marks an error of PendingTrial.Read, which SaveTrials returns
// without wrapping it.
type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }
func (e readError) Unwrap() error { return e.err }

// unwrapRead returns a PendingTrial.Read error as Read returned it, or err
// (wrapped with "save trial NAME" when name is known) otherwise.
func unwrapRead(err error, name string) error {
	var re readError
	if errors.As(err, &re) {
		return re.err
	}
	if name == "" {
		return fmt.Errorf("save trial: %w", err)
	}
	return fmt.Errorf("save trial %q: %w", name, err)
}

// knownNames returns the names given in the options of trials whose rule
// checks names, for lockNames to lock before anything is read.
func knownNames(trials []PendingTrial) []string {
	var names []string
	for _, pt := range trials {
		if pt.Options.Name != "" && pt.Options.IfExists != NameAllowDuplicate {
			names = append(names, pt.Options.Name)
		}
	}
	return names
}

// prepareSave checks the name of pt, reads it and plans its rows. It
// returns the plan, or nil with the SavedTrial of a reused trial. The names
// known in advance are locked already (knownNames); a name that only the
// trial gives is locked here. name is the trial's name as far as known,
// for the error.
func (db *DB) prepareSave(ctx context.Context, r runner, pt PendingTrial) (p *savePlan, saved SavedTrial, name string, err error) {
	opt := pt.Options
	name = opt.Name
	if name != "" && opt.IfExists != NameAllowDuplicate {
		if saved, done, err := checkName(ctx, r, name, opt.IfExists); err != nil || done {
			return nil, saved, name, err
		}
	}
	t := pt.Trial
	if t == nil {
		if t, err = pt.Read(); err != nil {
			return nil, saved, name, readError{err}
		}
		if t == nil {
			return nil, saved, name, errors.New("nil trial")
		}
	}
	if name == "" {
		name = t.Name
	}
	if p, err = newSavePlan(t, opt); err != nil {
		return nil, saved, name, err
	}
	if opt.Name == "" && opt.IfExists != NameAllowDuplicate {
		if err := db.lockNames(ctx, r, "trial", p.name); err != nil {
			return nil, saved, name, err
		}
		if saved, done, err := checkName(ctx, r, p.name, opt.IfExists); err != nil || done {
			return nil, saved, name, err
		}
	}
	return p, SavedTrial{Name: p.name}, name, nil
}

// checkName looks for a trial named name (its lock held) and applies rule:
// done with the stored trial for NameReuse, a *NameTakenError for
// NameRefuse, not done when the name is free.
func checkName(ctx context.Context, r runner, name string, rule NameRule) (SavedTrial, bool, error) {
	id, err := trialNamed(ctx, r, name)
	switch {
	case err != nil:
		return SavedTrial{}, false, err
	case id == 0:
		return SavedTrial{}, false, nil
	case rule == NameReuse:
		return SavedTrial{ID: id, Name: name, Reused: true}, true, nil
	}
	return SavedTrial{}, false, &NameTakenError{Kind: "trial", Name: name, ID: id}
}

// quotedName is ` "NAME"` of the first trial of a save, when its name is
// known before it is read, for errors that come before any trial is.
func quotedName(trials []PendingTrial) string {
	name := trials[0].Options.Name
	if name == "" && trials[0].Trial != nil {
		name = trials[0].Trial.Name
	}
	if name == "" {
		return ""
	}
	return fmt.Sprintf(" %q", name)
}
