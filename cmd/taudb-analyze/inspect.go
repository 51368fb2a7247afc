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
	var format string
	var top int
	cmd := &cobra.Command{
		Use:   "inspect PATH",
		Short: "Read a trial from TAU files and describe it (no database)",
		Long: `inspect reads a trial from files and prints its threads, metrics, region and
call-graph node counts, whether its callpaths form a complete tree, the main
region, the top regions by exclusive value of the first time metric (mean over
all threads, absent ones as 0, in the metric's unit: microseconds for time)
and the trial metadata.

PATH is a folder of profile.N.C.T files (or of MULTI__<metric> folders), a
ParaProf .ppk file, or TAU XML (tauprofile.xml, .xml.gz, snapshot files);
the format is detected unless -f says it.`,
		Example: `  taudb-analyze inspect testdata/generated/mpi/p4
  taudb-analyze inspect --format json run.ppk`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("inspect takes one PATH, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if top < 0 {
				return usagef("--top %d: want 0 or more", top)
			}
			t, err := reader.Read(args[0], format)
			if err != nil {
				return fmt.Errorf("inspect: %w", err)
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
	return cmd
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
