package main

import (
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestSameOutputOnBothDatabases loads the same trials into a fresh SQLite
// file and a fresh PostgreSQL schema and runs every read command and
// analysis on each, in every format: the outputs must be byte-identical
// (every table has a total order; numbers print the same).
func TestSameOutputOnBothDatabases(t *testing.T) {
	storetest.RequirePostgres(t)
	paths := []string{
		realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk"),
		realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk"),
		realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/6.ppk"),
		realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi"),
	}
	names := []string{"sbc-2", "sbc-4", "sbc-6", "cpi"}
	commands := [][]string{
		{"trials"}, {"stats", "--trial", "sbc-4"}, {"stats", "--trial", "cpi", "--inclusive"},
		{"imbalance", "--trial", "cpi", "--no-save"}, {"imbalance", "--trial", "cpi", "--callpath", "--no-save"},
		{"regions", "--trial", "cpi", "--no-save"}, {"summary", "--trial", "sbc-4", "--no-save"},
		{"speedup", "--trials", "sbc-2,sbc-4,sbc-6", "--no-save"}, {"scalability", "--trials", "sbc-2,sbc-4,sbc-6", "--no-save"},
		{"overhead", "--trials", "sbc-2,sbc-4,sbc-6", "--no-save"}, {"cluster", "--trials", "sbc-4,sbc-6", "-k", "2", "--no-save"},
		{"compare", "--trial", "sbc-2", "--trial", "sbc-4", "--no-save"},
		{"speedup", "--trials", "sbc-2,sbc-4,sbc-6"}, {"imbalance", "--trial", "cpi"}, {"results"}, {"results", "1"}, {"results", "2"},
	}
	outputs := map[string][]string{}
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "-q", "db", "init")
		for i, p := range paths {
			ok(t, nil, "--db", url, "-q", "load", "-n", names[i], "-a", "app", "-x", "x", p)
		}
		var outs []string
		for _, c := range commands {
			for _, format := range []string{"table", "json", "csv"} {
				r := ok(t, nil, append([]string{"--db", url, "-q", "--format", format}, c...)...)
				outs = append(outs, strings.ReplaceAll(r.stdout, url, "URL"))
			}
		}
		outputs[t.Name()] = outs
	})
	a, b := outputs[t.Name()+"/sqlite"], outputs[t.Name()+"/postgres"]
	if len(a) == 0 || len(b) == 0 {
		t.Skip("one of the databases did not run")
	}
	i := 0
	for _, c := range commands {
		for _, format := range []string{"table", "json", "csv"} {
			if a[i] != b[i] {
				t.Errorf("%v --format %s differs:\n--- sqlite\n%s\n--- postgres\n%s", c, format, firstDiff(a[i], b[i]), firstDiff(b[i], a[i]))
			}
			i++
		}
	}
}

// firstDiff returns the lines of a from the first one that differs from b,
// at most 5.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range la {
		if i >= len(lb) || la[i] != lb[i] {
			return strings.Join(la[i:min(len(la), i+5)], "\n")
		}
	}
	return ""
}
