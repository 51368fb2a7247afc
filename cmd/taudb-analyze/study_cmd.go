package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/study"
	"github.com/taudb-analyze/taudb-analyze/report"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// arity is how an analysis command takes its trials.
type arity int

const (
	oneTrial   arity = iota // --trial T, run once per trial
	twoTrials               // --trial A --trial B
	manyTrials              // --trials T1,T2,...
)

// studyAnalyses are the analysis commands a study may run.
var studyAnalyses = map[string]arity{
	"imbalance": oneTrial, "regions": oneTrial, "ratio": oneTrial, "summary": oneTrial, "correlate": oneTrial,
	"compare": twoTrials,
	"speedup": manyTrials, "scalability": manyTrials, "multiregion": manyTrials, "multiset": manyTrials,
	"overhead": manyTrials, "cluster": manyTrials,
}

// studyReserved are flags a study sets itself: the trials, the database
// and the output.
var studyReserved = map[string]string{
	"trial": "the trials", "trials": "the trials", "where": "the trials", "view": "the trials",
	"db": "the database", "config": "the database", "config-file": "the database",
	"format": "the output", "table": "the output", "quiet": "the output", "verbose": "the output", "reuse": "reuse", "help": "the output",
}

func analysisNames() []string {
	var out []string
	for n := range studyAnalyses {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

const studyHelp = `A study file (YAML) describes a whole analysis session:

  title: matmult strong scaling           # the report's title (optional)
  database: sqlite:matmult.db             # optional; --db, $TAUDB_URL, default
  trials:
    - name: mm-np1                        # load PATH as trial "mm-np1",
      path: runs/np1                      # unless a trial of that name exists
      application: matmult                # optional: application, experiment,
      experiment: strong                  #   format (else detected)
    - name: mm-np2                        # a trial already in the database
    - where: application == "matmult"     # stored trials chosen by expression
    - view: nightly                       # the trials of a TAUdb view
  analyses:
    - run: speedup                        # an analysis command
      with: {metric: TIME, aggregate: mean}   # its flags, without the dashes
    - run: imbalance                      # single-trial analyses run once per
      trials: [mm-np1]                    # trial; default: all the trials
  report:
    out: matmult-report                   # write the HTML report here
    title: matmult at 1..8 processes

Analyses: ` + "imbalance, regions, ratio, summary, correlate (once per trial), compare\n(exactly two trials), speedup, scalability, multiregion, multiset, overhead,\ncluster (all the trials together)" + `. Relative paths are relative to the
study file's folder. --db overrides the file's database, --out its report
folder.

Everything is checked before any work: an unknown key, a value of the wrong
kind, a trial path that does not exist, an unknown analysis or a flag the
analysis does not have is an error naming the file and line. Running a
study again reuses the trials already loaded (by name) and the results
already stored (same trials, same parameters) and says so.`

func (a *app) studyCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "study FILE",
		Short: "Run a scripted study: load trials, run analyses, write the report",
		Long:  "study runs the study FILE describes, in order: it loads or selects the\ntrials, runs each analysis and stores its result, and writes the report.\n\n" + studyHelp,
		Example: `  taudb-analyze study scripts/scalability.yaml
  taudb-analyze --db postgres://me@dbhost/taudb study scripts/overhead.yaml --out /tmp/overhead
  taudb-analyze --format json study scripts/clustering.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("study needs one FILE")
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return []string{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			s, err := a.readStudy(args[0])
			if err != nil {
				return err
			}
			if out != "" {
				s.Report.Out = out
			}
			if a.db == "" && a.config == "" && a.configFile == "" {
				a.db = s.Database
			}
			url, err := a.databaseURL()
			if err != nil {
				return err
			}
			if s.Report.Out != "" {
				if err := report.CheckDir(s.Report.Out, false); err != nil {
					return err // before any work
				}
			}
			run, err := a.execStudy(ctx, s, url)
			if err != nil {
				return err
			}
			if s.Report.Out != "" {
				title := s.Report.Title
				if title == "" {
					title = s.Title
				}
				if run.Report, err = report.Write(s.Report.Out, run.results, report.Meta{Title: title, Created: time.Now(), Source: "study " + s.File + ", database " + store.Redact(url)}); err != nil {
					return fmt.Errorf("%s: report: %w", s.File, err)
				}
			}
			return a.printStudy(run)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write the report to this folder instead of the one the study names")
	return cmd
}

// readStudy reads, parses and validates a study file: everything that can
// be checked without the database.
func (a *app) readStudy(path string) (*study.Study, error) {
	s, err := study.Read(path)
	if err != nil {
		return nil, err
	}
	if err := s.Validate(analysisNames(), reader.Formats, a.checkStudyParam); err != nil {
		return nil, err
	}
	return s, nil
}

// checkStudyParam checks that p is a flag of the analysis command run that
// a study may set, with a value the flag accepts.
func (a *app) checkStudyParam(run string, p study.Param) error {
	if what, ok := studyReserved[p.Name]; ok {
		return fmt.Errorf("parameter %q: the study sets %s itself", p.Name, what)
	}
	cmd, _, err := newApp(io.Discard, io.Discard).root().Find([]string{run})
	if err != nil || cmd.Name() != run {
		return fmt.Errorf("no such analysis")
	}
	f := cmd.Flags().Lookup(p.Name)
	if f == nil && len(p.Name) == 1 {
		f = cmd.Flags().ShorthandLookup(p.Name)
	}
	if f == nil {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if _, r := studyReserved[f.Name]; !r && !f.Hidden {
				names = append(names, f.Name)
			}
		})
		return fmt.Errorf("unknown parameter %q (%s takes: %s)", p.Name, run, strings.Join(names, ", "))
	}
	if err := f.Value.Set(p.Value); err != nil {
		return fmt.Errorf("parameter %s: bad value %q: %v", p.Name, p.Value, err)
	}
	return nil
}

// studyRun is what a study did: printed at the end, one JSON document with
// --format json.
type studyRun struct {
	Study    string        `json:"study"`
	Database string        `json:"database"`
	Trials   []studyTrial  `json:"trials"`
	Results  []studyResult `json:"results"`
	Report   string        `json:"report,omitempty"`
	results  []*analysis.Result
}

// studyTrial is one trial of a study and how it came in.
type studyTrial struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// How is "loaded", "reused" (loaded before, found by name), "named"
	// or "selected".
	How string `json:"how"`
}

// studyResult is one analysis result of a study.
type studyResult struct {
	ID       int64   `json:"id"`
	Analysis string  `json:"analysis"`
	Trials   []int64 `json:"trials"`
	Reused   bool    `json:"reused"`
	Finding  string  `json:"finding,omitempty"`
	Line     int     `json:"line"`
}

// execStudy loads or selects the study's trials and runs its analyses
// against the database at url; it does not write the report.
func (a *app) execStudy(ctx context.Context, s *study.Study, url string) (*studyRun, error) {
	db, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := a.ensureSchema(ctx, db); err != nil {
		return nil, err
	}
	run := &studyRun{Study: s.File, Database: db.URL()}
	at := func(line int, err error) error {
		return fmt.Errorf("%s:%d: %w", s.File, line, err)
	}
	// Everything the database can tell before work starts: trials named
	// but not loaded by the study exist.
	loads := map[string]bool{}
	for _, t := range s.Trials {
		if t.Path != "" {
			loads[t.Name] = true
		}
	}
	for _, t := range s.Trials {
		if t.Path == "" && t.Name != "" {
			if _, err := db.FindTrial(ctx, t.Name); err != nil {
				return nil, at(t.Line, err)
			}
		}
	}
	for _, an := range s.Analyses {
		for _, ref := range an.Trials {
			if !loads[ref] {
				if _, err := db.FindTrial(ctx, ref); err != nil {
					return nil, at(an.Line, err)
				}
			}
		}
	}

	bar := a.progress(len(s.Trials)+len(s.Analyses), "study")
	defer bar.done()
	say := func(format string, args ...any) {
		if !a.quiet && a.format != "json" {
			bar.println(a.errOut, fmt.Sprintf(format, args...))
		}
	}
	var ids []int64
	seen := map[int64]bool{}
	byName := map[string]int64{}
	add := func(id int64, name, how string) {
		if name != "" {
			byName[name] = id
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
			run.Trials = append(run.Trials, studyTrial{ID: id, Name: name, How: how})
		}
	}
	for _, t := range s.Trials {
		bar.step("trial " + t.Name)
		switch {
		case t.Path != "":
			found, err := db.TrialsNamed(ctx, t.Name)
			if err != nil {
				return nil, err
			}
			if len(found) > 0 {
				add(found[0], t.Name, "reused")
				say("trial %s: already loaded as trial %d, reused", t.Name, found[0])
				continue
			}
			tr, err := reader.Read(t.Path, t.Format)
			if err != nil {
				return nil, at(t.Line, fmt.Errorf("load %s: %w", t.Path, err))
			}
			for _, w := range tr.Warnings {
				say("warning: %s: %s", t.Path, w)
			}
			// NameReuse: a study run at the same time may have loaded it
			// since the look-up above.
			saved, err := db.SaveTrials(ctx, []store.PendingTrial{{Trial: tr, Options: store.SaveOptions{Name: t.Name, Application: t.Application, Experiment: t.Experiment, IfExists: store.NameReuse}}})
			if err != nil {
				return nil, at(t.Line, fmt.Errorf("load %s: %w", t.Path, err))
			}
			id := saved[0].ID
			if saved[0].Reused {
				add(id, t.Name, "reused")
				say("trial %s: already loaded as trial %d, reused", t.Name, id)
				continue
			}
			add(id, t.Name, "loaded")
			say("trial %s: loaded %s as trial %d (%d threads, %d regions)", t.Name, t.Path, id, len(tr.Threads), len(tr.Regions))
		case t.Name != "":
			id, err := db.FindTrial(ctx, t.Name)
			if err != nil {
				return nil, at(t.Line, err)
			}
			add(id, t.Name, "named")
		default:
			sel := selection{where: t.Where, view: t.View}
			picked, err := a.selectTrialInfos(ctx, db, sel, 1)
			if err != nil {
				return nil, at(t.Line, err)
			}
			for _, ti := range picked {
				add(ti.ID, ti.Name, "selected")
			}
			say("selected %d trial(s) by %s", len(picked), strings.TrimSpace(t.Where+" "+t.View))
		}
	}

	for _, an := range s.Analyses {
		bar.step(an.Run)
		sel := ids
		if len(an.Trials) > 0 {
			sel = nil
			for _, ref := range an.Trials {
				id, ok := byName[ref]
				if !ok {
					if id, err = db.FindTrial(ctx, ref); err != nil {
						return nil, at(an.Line, err)
					}
				}
				sel = append(sel, id)
			}
		}
		var calls [][]string
		switch studyAnalyses[an.Run] {
		case oneTrial:
			for _, id := range sel {
				calls = append(calls, []string{"--trial", strconv.FormatInt(id, 10)})
			}
		case twoTrials:
			if len(sel) != 2 {
				return nil, at(an.Line, fmt.Errorf("%s compares two trials; the study gives it %d (use \"trials: [A, B]\")", an.Run, len(sel)))
			}
			calls = append(calls, []string{"--trial", strconv.FormatInt(sel[0], 10), "--trial", strconv.FormatInt(sel[1], 10)})
		default:
			var list []string
			for _, id := range sel {
				list = append(list, strconv.FormatInt(id, 10))
			}
			calls = append(calls, []string{"--trials", strings.Join(list, ",")})
		}
		if len(sel) == 0 {
			return nil, at(an.Line, fmt.Errorf("%s: the study has no trials to run it on", an.Run))
		}
		for _, trialArgs := range calls {
			args := append([]string{an.Run, "--db", url, "--quiet", "--reuse"}, trialArgs...)
			for _, p := range an.With {
				args = append(args, "--"+p.Name+"="+p.Value)
			}
			var out, errOut bytes.Buffer
			sub := newApp(&out, &errOut)
			var got []studyResult
			sub.onResult = func(id int64, res *analysis.Result, reused bool) {
				r := studyResult{ID: id, Analysis: an.Run, Reused: reused, Line: an.Line}
				if len(res.Findings) > 0 {
					r.Finding = res.Findings[0]
				}
				got = append(got, r)
				run.results = append(run.results, res)
			}
			root := sub.root()
			root.SetArgs(args)
			if err := root.ExecuteContext(ctx); err != nil {
				return nil, at(an.Line, fmt.Errorf("%s: %w", an.Run, err))
			}
			for i := range got {
				got[i].Trials = parseIDs(trialArgs)
				what := "stored as result"
				if got[i].Reused {
					what = "already stored as result"
				}
				line := fmt.Sprintf("%s of trial(s) %s: %s %d", an.Run, joinIDs(got[i].Trials), what, got[i].ID)
				if got[i].Reused {
					line += ", reused"
				}
				if got[i].Finding != "" {
					line += ": " + got[i].Finding
				}
				say("%s", line)
			}
			run.Results = append(run.Results, got...)
			if a.verbose && a.format == "table" {
				bar.println(a.out, strings.TrimRight(out.String(), "\n"))
			}
		}
	}
	return run, nil
}

// ensureSchema gives an embedded database without schema one, and checks
// any other holds TAUdb version 2 (as openDB does).
func (a *app) ensureSchema(ctx context.Context, db *store.DB) error {
	if _, err := db.CheckSchema(ctx); err != nil {
		if db.Dialect() != store.SQLite {
			return err
		}
		if _, err := db.Init(ctx); err != nil {
			return err
		}
		return nil
	}
	return a.addOwnTables(ctx, db)
}

// parseIDs returns the trial ids of an analysis command's trial flags.
func parseIDs(args []string) []int64 {
	var out []int64
	for i := 1; i < len(args); i += 2 {
		for _, s := range strings.Split(args[i], ",") {
			if id, err := strconv.ParseInt(s, 10, 64); err == nil {
				out = append(out, id)
			}
		}
	}
	return out
}

func joinIDs(ids []int64) string {
	var s []string
	for _, id := range ids {
		s = append(s, strconv.FormatInt(id, 10))
	}
	return strings.Join(s, ",")
}

// printStudy prints what a study did: one JSON document, or a table of its
// results (then the report's index path) as text or CSV.
func (a *app) printStudy(run *studyRun) error {
	if a.format == "json" {
		if run.Trials == nil {
			run.Trials = []studyTrial{}
		}
		if run.Results == nil {
			run.Results = []studyResult{}
		}
		return writeJSON(a.out, run)
	}
	tb := table{header: []string{"result", "analysis", "trials", "reused", "finding"}}
	for _, r := range run.Results {
		tb.add(strconv.FormatInt(r.ID, 10), r.Analysis, joinIDs(r.Trials), strconv.FormatBool(r.Reused), r.Finding)
	}
	if a.format == "csv" {
		return tb.writeCSV(a.out)
	}
	if len(run.Results) > 0 {
		if err := tb.writeText(a.out); err != nil {
			return err
		}
	}
	if run.Report != "" {
		a.info("report written; open it in a browser:")
		fmt.Fprintln(a.out, run.Report)
	}
	return nil
}
