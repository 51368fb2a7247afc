package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// app holds the global flags and the output streams of one invocation.
type app struct {
	out, errOut io.Writer
	db          string
	format      string
	config      string
	configFile  string
	quiet       bool
	verbose     bool
	// reuse makes an analysis print the stored result computed the same
	// way from the same trials, when there is one, instead of storing a
	// duplicate (--reuse; always on in studies).
	reuse bool
	// rows is how many rows of each table the text format prints (--rows;
	// 0 all).
	rows int
	// junitThreshold is the relative regression that fails a JUnit test
	// case (regress --threshold with --format junit).
	junitThreshold float64
}

func newApp(out, errOut io.Writer) *app {
	return &app{out: out, errOut: errOut}
}

// usageError marks an error in the command line (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// markUsage makes every command-line error of c and its subcommands a
// usageError: the errors of the argument validators (cobra.NoArgs and
// kin), and an unknown subcommand of a command that has subcommands. Flag
// errors become usage errors through the root's flag error function. The
// exit code then follows the error's type, never its text.
func markUsage(c *cobra.Command) {
	switch {
	case c.Args != nil:
		validate := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := validate(cmd, args); err != nil {
				var ue usageError
				if errors.As(err, &ue) {
					return err
				}
				return usageError{err.Error()}
			}
			return nil
		}
	case c.HasSubCommands():
		if !c.Runnable() { // cobra would return before validating the arguments
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if cmd.SuggestionsMinimumDistance <= 0 {
				cmd.SuggestionsMinimumDistance = 2 // cobra's own default, which SuggestionsFor does not apply
			}
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return usageError{msg}
		}
	}
	for _, sub := range c.Commands() {
		markUsage(sub)
	}
}

func (a *app) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "taudb-analyze",
		Short: "Multi-experiment performance analysis of TAU trials in TAUdb",
		Long: `taudb-analyze loads TAU trials (profile folders, ParaProf .ppk, TAU XML) into a
TAUdb database (PostgreSQL for a team, an embedded SQLite file by default)
and analyses them across experiments: scaling, SCALEA overheads, clustering,
load imbalance. Results are stored back into TAUdb and rendered as HTML.

The database is chosen by --db URL or $TAUDB_URL: postgres://... (or a libpq
keyword string) for PostgreSQL, sqlite:PATH or a path ending in .db/.sqlite
for the embedded database; with neither, the embedded default is used.

Start with "taudb-analyze demo" (sample data, every analysis, a report),
then "taudb-analyze study FILE" to script a study of your own trials.

Output: results on stdout (a table, one JSON document with --format json,
or CSV); progress, what was stored and errors on stderr (a progress bar
only on a terminal; --quiet keeps only errors). Shell completion (with
trial names from the database): "taudb-analyze completion bash|zsh|fish".

Exit codes: 0 success; 1 the work failed (a bad input file, a database
error, a failed analysis; nothing half-written is left behind); 2 the
command line is wrong (unknown command or flag, bad flag value, a missing
or ambiguous choice of trials); 3 regress --fail-on found a regression.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			switch a.format {
			case "table", "json", "csv":
				return nil
			case "junit": // regress's JUnit XML report
				if cmd.Name() == "regress" {
					return nil
				}
			}
			return usagef("--format %q: want table, json or csv", a.format)
		},
	}
	root.SetOut(a.out)
	root.SetErr(a.errOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err.Error()} })
	pf := root.PersistentFlags()
	pf.StringVar(&a.db, "db", "", "database URL (postgres://..., sqlite:PATH, or a .db/.sqlite path); default $TAUDB_URL, then the embedded default")
	pf.StringVar(&a.format, "format", "table", "output format: table, json or csv")
	pf.StringVar(&a.config, "config", "", "use TAU's configuration ~/.ParaProf/perfdmf.cfg.NAME")
	pf.StringVar(&a.configFile, "config-file", "", "use a TAU perfdmf.cfg configuration file")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "print only results and errors")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "print what is being done")
	pf.IntVar(&a.rows, "rows", defaultRows, "table format: rows printed per table, the most important first (default: as many as fit the result in 100 lines, at least 5 per table; 0: all; json and csv always have every row)")
	pf.BoolVar(&a.reuse, "reuse", false, "analyses: when a result computed the same way from the same trials is stored, print it instead of storing a duplicate")
	root.AddCommand(a.inspectCmd(), a.versionCmd(), a.dbCmd(), a.loadCmd(), a.trialsCmd(), a.statsCmd(), a.deleteCmd(),
		a.resultsCmd(), a.viewsCmd(), a.demoCmd(), a.reportCmd(), a.synthCmd(), a.studyCmd())
	root.AddCommand(a.analysisCmds()...)
	root.AddCommand(a.watchCmd(), a.serveCmd())
	a.registerCompletions(root)
	markUsage(root)
	return root
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Example: `  taudb-analyze version
  taudb-analyze --format json version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.format == "json" {
				return writeJSON(a.out, map[string]string{"version": version})
			}
			fmt.Fprintln(a.out, "taudb-analyze", version)
			return nil
		},
	}
}

// registerCompletions makes the shell complete trial names (--trial,
// --trials, --baseline) and view names (--view) from the database the
// command line names, for every command that has those flags. Completion
// never fails loudly: with no database it offers nothing.
func (a *app) registerCompletions(root *cobra.Command) {
	trialNames := func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		db, err := a.completionDB(cmd)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer db.Close()
		infos, err := db.Trials(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// In a comma-separated list, complete the last element.
		prefix := ""
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			prefix = toComplete[:i+1]
		}
		var out []string
		for _, t := range infos {
			out = append(out, prefix+t.Name+"\t"+fmt.Sprintf("trial %d, %d threads", t.ID, t.Threads))
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	viewNames := func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		db, err := a.completionDB(cmd)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer db.Close()
		views, err := db.Views(cmd.Context())
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []string
		for _, v := range views {
			out = append(out, v.Name)
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, name := range []string{"trial", "trials", "baseline"} {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, trialNames)
			}
		}
		if c.Flags().Lookup("view") != nil {
			_ = c.RegisterFlagCompletionFunc("view", viewNames)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	_ = root.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"table", "json", "csv"}, cobra.ShellCompDirectiveNoFileComp))
}

// completionDB opens the database for shell completion, but not an
// embedded database that does not exist yet: pressing TAB must not create
// one.
func (a *app) completionDB(cmd *cobra.Command) (*store.DB, error) {
	u, err := a.databaseURL()
	if err != nil {
		return nil, err
	}
	if p, ok := strings.CutPrefix(u, "sqlite:"); ok {
		if _, err := os.Stat(p); err != nil {
			return nil, err
		}
	}
	return a.openRead(cmd.Context())
}
