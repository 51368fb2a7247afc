package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/study"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// studyExec is one run of a study on its one open database: the trials it
// gathered so far and what it did.
type studyExec struct {
	a      *app
	db     *store.DB
	s      *study.Study
	run    *studyRun
	bar    *progress
	ids    []int64          // the study's trials, in order
	byName map[string]int64 // their ids by the names the study gives
}

// execStudy loads or selects the study's trials and runs its analyses
// through the registry against the database at url, opened once; it does
// not write the report.
func (a *app) execStudy(ctx context.Context, s *study.Study, url string) (*studyRun, error) {
	db, err := a.openStore(ctx, url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := a.ensureSchema(ctx, db); err != nil {
		return nil, err
	}
	x := &studyExec{a: a, db: db, s: s, run: &studyRun{Study: s.File, Database: db.URL()}, byName: map[string]int64{}}
	if err := x.checkNames(ctx); err != nil {
		return nil, err
	}
	x.bar = a.progress(len(s.Trials)+len(s.Analyses), "study")
	defer x.bar.done()
	for _, t := range s.Trials {
		x.bar.step("trial " + t.Name)
		if err := x.trial(ctx, t); err != nil {
			return nil, err
		}
	}
	for _, an := range s.Analyses {
		x.bar.step(an.Run)
		if err := x.analysis(ctx, an); err != nil {
			return nil, x.at(an.Line, fmt.Errorf("%s: %w", an.Run, err))
		}
	}
	return x.run, nil
}

// at places err at a line of the study file.
func (x *studyExec) at(line int, err error) error {
	return fmt.Errorf("%s:%d: %w", x.s.File, line, err)
}

// say prints a line of progress, unless --quiet or --format json.
func (x *studyExec) say(format string, args ...any) {
	if !x.a.quiet && x.a.format != "json" {
		x.bar.println(x.a.errOut, fmt.Sprintf(format, args...))
	}
}

// checkNames checks, before any work, that the trials the study names
// without loading them exist.
func (x *studyExec) checkNames(ctx context.Context) error {
	loads := map[string]bool{}
	for _, t := range x.s.Trials {
		if t.Path != "" {
			loads[t.Name] = true
		}
	}
	for _, t := range x.s.Trials {
		if t.Path == "" && t.Name != "" {
			if _, err := x.db.FindTrial(ctx, t.Name); err != nil {
				return x.at(t.Line, err)
			}
		}
	}
	for _, an := range x.s.Analyses {
		for _, ref := range an.Trials {
			if !loads[ref] {
				if _, err := x.db.FindTrial(ctx, ref); err != nil {
					return x.at(an.Line, err)
				}
			}
		}
	}
	return nil
}

// add adds a trial to the study's, once.
func (x *studyExec) add(id int64, name, how string) {
	if name != "" {
		x.byName[name] = id
	}
	for _, have := range x.ids {
		if have == id {
			return
		}
	}
	x.ids = append(x.ids, id)
	x.run.Trials = append(x.run.Trials, studyTrial{ID: id, Name: name, How: how})
}

// trial loads, names or selects one entry of the study's trials.
func (x *studyExec) trial(ctx context.Context, t study.Trial) error {
	switch {
	case t.Path != "":
		return x.load(ctx, t)
	case t.Name != "":
		id, err := x.db.FindTrial(ctx, t.Name)
		if err != nil {
			return x.at(t.Line, err)
		}
		x.add(id, t.Name, "named")
		return nil
	}
	picked, err := x.a.selectTrialInfos(ctx, x.db, selection{where: t.Where, view: t.View}, 1)
	if err != nil {
		return x.at(t.Line, err)
	}
	for _, ti := range picked {
		x.add(ti.ID, ti.Name, "selected")
	}
	x.say("selected %d trial(s) by %s", len(picked), strings.TrimSpace(t.Where+" "+t.View))
	return nil
}

// load loads the trial at t.Path under t.Name, unless a trial of that name
// is in the database already, which it reuses.
func (x *studyExec) load(ctx context.Context, t study.Trial) error {
	found, err := x.db.TrialsNamed(ctx, t.Name)
	if err != nil {
		return err
	}
	if len(found) > 0 {
		x.add(found[0], t.Name, "reused")
		x.say("trial %s: already loaded as trial %d, reused", t.Name, found[0])
		return nil
	}
	tr, err := reader.Read(t.Path, t.Format)
	if err != nil {
		return x.at(t.Line, fmt.Errorf("load %s: %w", t.Path, err))
	}
	for _, w := range tr.Warnings {
		x.say("warning: %s: %s", t.Path, w)
	}
	// NameReuse: a study run at the same time may have loaded it since
	// the look-up above.
	saved, err := x.db.SaveTrials(ctx, []store.PendingTrial{{Trial: tr, Options: store.SaveOptions{Name: t.Name, Application: t.Application, Experiment: t.Experiment, IfExists: store.NameReuse}}})
	if err != nil {
		return x.at(t.Line, fmt.Errorf("load %s: %w", t.Path, err))
	}
	if saved[0].Reused {
		x.add(saved[0].ID, t.Name, "reused")
		x.say("trial %s: already loaded as trial %d, reused", t.Name, saved[0].ID)
		return nil
	}
	x.add(saved[0].ID, t.Name, "loaded")
	x.say("trial %s: loaded %s as trial %d (%d threads, %d regions)", t.Name, t.Path, saved[0].ID, len(tr.Threads), len(tr.Regions))
	return nil
}

// trialsOf returns the ids of the trials an entry runs on: those it names,
// else all the study's.
func (x *studyExec) trialsOf(ctx context.Context, entry study.Analysis) ([]int64, error) {
	if len(entry.Trials) == 0 {
		return x.ids, nil
	}
	var ids []int64
	for _, ref := range entry.Trials {
		id, ok := x.byName[ref]
		if !ok {
			var err error
			if id, err = x.db.FindTrial(ctx, ref); err != nil {
				return nil, err
			}
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// analysis runs one entry of the study's analyses through the registry:
// once per trial for a single-trial analysis, else once on its trials.
func (x *studyExec) analysis(ctx context.Context, entry study.Analysis) error {
	an, o, err := studyOptions(entry)
	if err != nil {
		return err
	}
	ids, err := x.trialsOf(ctx, entry)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return fmt.Errorf("the study has no trials to run it on")
	}
	calls := [][]int64{ids}
	switch {
	case an.Trials == registry.Single:
		calls = nil
		for _, id := range ids {
			calls = append(calls, []int64{id})
		}
	case an.Trials == registry.Pair && len(ids) != 2:
		return fmt.Errorf("%s compares two trials; the study gives it %d (use \"trials: [A, B]\")", an.Name, len(ids))
	}
	qf, err := studyQuery(entry, an, o)
	if err != nil {
		return err
	}
	for _, call := range calls {
		if err := x.runOne(ctx, entry, an, o, call, qf); err != nil {
			return err
		}
	}
	return nil
}

// runOne runs the analysis on the trials ids, restricted by the entry's
// query qf when it has one, reusing a result stored before, and notes the
// result.
func (x *studyExec) runOne(ctx context.Context, entry study.Analysis, an *registry.Analysis, o registry.Options, ids []int64, qf *queryFlag) error {
	var out bytes.Buffer
	sub := &app{out: &out, errOut: io.Discard, quiet: true, reuse: true, format: "table", rows: defaultRows}
	r, err := sub.runIDs(ctx, x.db, an, o, ids, runFlags{query: qf})
	if err != nil {
		return err
	}
	sr := studyResult{ID: r.id, Analysis: entry.Run, Trials: ids, Reused: r.reused, Line: entry.Line}
	if f := r.out.Result.Findings; len(f) > 0 {
		sr.Finding = f[0]
	}
	x.run.results = append(x.run.results, r.out.Result)
	x.run.Results = append(x.run.Results, sr)
	what := "stored as result"
	if sr.Reused {
		what = "already stored as result"
	}
	line := fmt.Sprintf("%s of trial(s) %s: %s %d", entry.Run, joinIDs(ids), what, sr.ID)
	if sr.Reused {
		line += ", reused"
	}
	if sr.Finding != "" {
		line += ": " + sr.Finding
	}
	x.say("%s", line)
	if x.a.verbose && x.a.format == "table" {
		x.bar.println(x.a.out, strings.TrimRight(out.String(), "\n"))
	}
	return nil
}
