package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
)

func (a *app) inspectCmd() *cobra.Command {
	var format, trial string
	var top int
	var query queryFlag
	cmd := &cobra.Command{
		Use:   "inspect PATH | --trial T [--query Q]",
		Short: "Describe a trial read from TAU files (or stored), or list the call paths a query matches",
		Long: `inspect reads a trial from files and prints its threads, metrics, region and
call-graph node counts, whether its callpaths form a complete tree, the main
region, the top regions by exclusive value of the first time metric (mean over
all threads, absent ones as 0, in the metric's unit: microseconds for time)
and the trial metadata.

PATH is a folder of profile.N.C.T files (or of MULTI__<metric> folders), a
ParaProf .ppk file, or TAU XML (tauprofile.xml, .xml.gz, snapshot files);
the format is detected unless -f says it. With --trial T it describes a
trial stored in the database instead.

--query Q lists instead the call-graph nodes the call-path query Q matches
(docs/query.md), in depth-first order, with their mean exclusive and
inclusive time and calls over the threads that executed them. For a stored
trial and a query that names no metric (only names, files, groups, lines,
depth, leaves), the database is asked for the values of the matched nodes
only.`,
		Example: `  taudb-analyze inspect testdata/generated/mpi/p4
  taudb-analyze inspect --format json run.ppk
  taudb-analyze inspect run.ppk --query 'MATCH ("*")->(".", p) WHERE p."name" STARTS WITH "MPI_"'
  taudb-analyze inspect --trial cpi-4 --query 'MATCH (".", p) WHERE p."group" = "MPI" AND p IS LEAF'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("trial") {
				if len(args) != 0 {
					return usagef("inspect takes a PATH or --trial, not both")
				}
				return nil
			}
			if len(args) != 1 {
				return usagef("inspect takes one PATH, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if top < 0 {
				return usagef("--top %d: want 0 or more", top)
			}
			if err := query.parse(); err != nil {
				return err
			}
			t, err := a.inspectTrial(cmd, args, trial, format, &query)
			if err != nil || t == nil {
				return err
			}
			if query.q != nil {
				return a.printQuery(t, &query)
			}
			d := drg.Describe(t, top)
			switch a.format {
			case "json":
				return writeJSON(a.out, d)
			case "csv":
				tb := topTable(d)
				return tb.writeCSV(a.out)
			}
			return a.printDescription(d)
		},
	}
	cmd.Flags().StringVarP(&format, "file-format", "f", "", "input format: "+strings.Join(reader.Formats, ", ")+" (default: detected)")
	cmd.Flags().IntVar(&top, "top", 10, "number of top regions to list")
	cmd.Flags().StringVar(&trial, "trial", "", "a trial stored in the database (id or name) instead of PATH")
	cmd.Flags().StringVar(&query.text, "query", "", "list the call-graph nodes this call-path query matches (docs/query.md)")
	return cmd
}

// inspectTrial reads the trial inspect describes: from PATH, or the stored
// trial ref. With a query on a stored trial it prints the matches itself
// (inspectStored) and returns no trial.
func (a *app) inspectTrial(cmd *cobra.Command, args []string, ref, format string, q *queryFlag) (*drg.Trial, error) {
	if len(args) == 1 {
		t, err := reader.Read(args[0], format)
		if err != nil {
			return nil, fmt.Errorf("inspect: %w", err)
		}
		return t, nil
	}
	ctx := cmd.Context()
	if q.q != nil {
		return nil, a.inspectStored(ctx, ref, q)
	}
	db, err := a.openFor(ctx, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	lt, err := a.loadTrial(ctx, db, ref)
	return lt.trial, err
}

func topTable(d drg.Description) table {
	tb := table{header: []string{"region", "exclusive", "exclusive %", "inclusive", "calls"}}
	for _, r := range d.Top {
		tb.add(r.Region, num(r.Exclusive), fmt.Sprintf("%.2f", r.ExclusivePercent), num(r.Inclusive), num(r.Calls))
	}
	return tb
}

func (a *app) printDescription(d drg.Description) error {
	w := a.out
	fmt.Fprintf(w, "Trial:      %s\n", d.Name)
	fmt.Fprintf(w, "Source:     %s (%s)\n", d.Path, d.Format)
	fmt.Fprintf(w, "Threads:    %d (%d nodes, up to %d contexts per node, up to %d threads per context)\n", d.Threads, d.Nodes, d.Contexts, d.PerContext)
	fmt.Fprintf(w, "Metrics:    %s\n", strings.Join(d.Metrics, ", "))
	fmt.Fprintf(w, "Regions:    %d\n", d.Regions)
	fmt.Fprintf(w, "Timers:     %d measured names (%d callpaths); %d call-graph nodes\n", d.Timers, d.Callpaths, d.CallNodes)
	fmt.Fprintf(w, "Call tree:  %s", d.Tree)
	switch d.Tree {
	case "complete":
		fmt.Fprintf(w, ", rooted at %s", d.Main)
	case "partial":
		fmt.Fprintf(w, " (depth-limited callpaths, %d roots)", len(d.TreeRoots))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Main:       %s\n", d.Main)
	fmt.Fprintf(w, "Counters:   %d user events\n", d.Counters)
	if d.Snapshots > 0 {
		fmt.Fprintf(w, "Snapshots:  %d earlier snapshots kept as a time series\n", d.Snapshots)
	}
	if len(d.Top) > 0 {
		fmt.Fprintf(w, "\nTop %d regions by exclusive %s (mean over threads):\n", len(d.Top), d.TopMetric)
		tb := topTable(d)
		if err := tb.writeText(w); err != nil {
			return err
		}
	}
	if len(d.Metadata) > 0 {
		fmt.Fprintf(w, "\nMetadata (%d trial-level attributes):\n", len(d.Metadata))
		keys := make([]string, 0, len(d.Metadata))
		for k := range d.Metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "  %s = %s\n", k, oneLine(d.Metadata[k]))
		}
	}
	for _, warn := range d.Warnings {
		fmt.Fprintf(a.errOut, "warning: %s\n", escapeText(warn, ""))
	}
	return nil
}

// oneLine shortens a metadata value for a terminal line.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}
