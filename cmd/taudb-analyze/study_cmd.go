package main

import (
	"context"
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/callquery"
	"github.com/taudb-analyze/taudb-analyze/registry"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/study"
	"github.com/taudb-analyze/taudb-analyze/report"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// studyReserved are flags a study sets itself: the trials, the database
// and the output.
var studyReserved = map[string]string{
	"trial": "the trials", "trials": "the trials", "where": "the trials", "view": "the trials",
	"db": "the database", "config": "the database", "config-file": "the database",
	"format": "the output", "table": "the output", "quiet": "the output", "verbose": "the output", "reuse": "reuse", "help": "the output",
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
      query: 'MATCH ("*")->(".", p) WHERE p."name" STARTS WITH "MPI_"'
                                          # optional: --query (docs/query.md)
  report:
    out: matmult-report                   # write the HTML report here
    title: matmult at 1..8 processes

Analyses: ` + "imbalance, regions, ratio, summary, correlate (once per trial), compare\n(exactly two trials), speedup, scalability, multiregion, multiset, overhead,\ncluster, regress (all the trials together)" + `. Relative paths are relative to the
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
// be checked without the database, each analysis's options through the
// registry.
func (a *app) readStudy(path string) (*study.Study, error) {
	s, err := study.Read(path)
	if err != nil {
		return nil, err
	}
	if err := s.Validate(registry.Names(), reader.Formats, checkStudyParam); err != nil {
		return nil, err
	}
	for _, an := range s.Analyses {
		reg, o, err := studyOptions(an)
		if err != nil {
			return nil, &study.Error{File: s.File, Line: an.Line, Msg: fmt.Sprintf("%s: %v", an.Run, err)}
		}
		if _, err := studyQuery(an, reg, o); err != nil {
			return nil, &study.Error{File: s.File, Line: an.QueryLine, Msg: fmt.Sprintf("%s: %v", an.Run, err)}
		}
	}
	return s, nil
}

// studyQuery returns the parsed query of a study entry (nil for none): a
// query restricts one trial's call graph, so it goes with single-trial
// analyses only, and not with ratio's save-metric, as on the command line.
func studyQuery(entry study.Analysis, an *registry.Analysis, o registry.Options) (*queryFlag, error) {
	if entry.Query == "" {
		return nil, nil
	}
	if an.Trials != registry.Single {
		return nil, fmt.Errorf("query: restricts the call graph of one trial, and %s analyses %s", an.Name, an.Trials)
	}
	if savesMetric(o) {
		return nil, fmt.Errorf("query: save-metric stores the metric of the whole trial: leave out the query")
	}
	q, err := callquery.Parse(entry.Query)
	if err != nil {
		return nil, fmt.Errorf("query: %v", err)
	}
	return &queryFlag{text: entry.Query, q: q}, nil
}

// checkStudyParam checks that p is an option of the analysis run that a
// study may set, with a value the option accepts.
func checkStudyParam(run string, p study.Param) error {
	if what, ok := studyReserved[p.Name]; ok {
		return fmt.Errorf("parameter %q: the study sets %s itself", p.Name, what)
	}
	an, err := registry.Lookup(run)
	if err != nil {
		return err
	}
	return an.Set(an.Defaults(), p.Name, p.Value)
}

// studyOptions returns the registered analysis a study entry runs and its
// options: the defaults, set by the entry's parameters, validated.
func studyOptions(entry study.Analysis) (*registry.Analysis, registry.Options, error) {
	an, err := registry.Lookup(entry.Run)
	if err != nil {
		return nil, nil, err
	}
	o := an.Defaults()
	for _, p := range entry.With {
		if err := an.Set(o, p.Name, p.Value); err != nil {
			return nil, nil, err
		}
	}
	if err := o.Validate(); err != nil {
		return nil, nil, err
	}
	return an, o, nil
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
