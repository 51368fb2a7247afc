package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
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
}

func newApp(out, errOut io.Writer) *app {
	return &app{out: out, errOut: errOut}
}

// usageError marks an error in the command line (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// isCobraUsage recognizes cobra's own command-line errors.
func isCobraUsage(err error) bool {
	s := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument",
		"invalid argument", "accepts ", "requires at least", "requires at most", "required flag"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
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
for the embedded database; with neither, the embedded default is used.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			switch a.format {
			case "table", "json", "csv":
				return nil
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
	root.AddCommand(a.inspectCmd(), a.versionCmd(), a.dbCmd(), a.loadCmd(), a.trialsCmd(), a.statsCmd(), a.deleteCmd(),
		a.imbalanceCmd(), a.regionsCmd(), a.ratioCmd(), a.summaryCmd(), a.correlateCmd(), a.compareCmd(), a.resultsCmd(),
		a.speedupCmd(), a.scalabilityCmd(), a.multiregionCmd(), a.multisetCmd(), a.clusterCmd(), a.overheadCmd(), a.viewsCmd(), a.demoCmd(), a.reportCmd(), a.synthCmd())
	return root
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.format == "json" {
				return writeJSON(a.out, map[string]string{"version": version})
			}
			fmt.Fprintln(a.out, "taudb-analyze", version)
			return nil
		},
	}
}
