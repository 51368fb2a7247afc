package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
)

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"MPI_Send()": "MPI_Send()",
		"void compute(double **, double **, double **, int, int, int) C [{matmult.c} {90,1}-{109,1}]":                                        "compute(…) [matmult.c:90]",
		"std::vector<double> ns::Solver<3>::assemble(const Mesh &, std::map<int, std::vector<double>> &) const [{/src/a/solver.hpp} {12,3}]": "ns::Solver<3>::assemble(…) [solver.hpp:12]",
		strings.Repeat("x", 60): strings.Repeat("x", 47) + "…",
	} {
		if got := shortName(in, maxNameWidth); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
		if n := len([]rune(shortName(in, maxNameWidth))); n > maxNameWidth {
			t.Errorf("%q: %d runes", in, n)
		}
	}
}

func TestHumanTable(t *testing.T) {
	var tb analysis.Table
	tb.AddText("region", []string{"a", "b", "c"})
	tb.AddNum("time", "us", []float64{2.5e6, 1.25e6, math.NaN()})
	tb.AddNum("small", "us", []float64{12, 800, 3})
	tb.AddNum("ratio", "", []float64{0.5, 1, 2})
	out, n := humanTable(&tb, 2)
	if n != 2 || len(out.rows) != 2 {
		t.Fatalf("%d rows", n)
	}
	if strings.Join(out.header, "|") != "region|time [s]|small [µs]|ratio" {
		t.Errorf("header %q", out.header)
	}
	if strings.Join(out.rows[0], "|") != "a|2.5|12|0.5" || strings.Join(out.rows[1], "|") != "b|1.25|800|1" {
		t.Errorf("rows %q", out.rows)
	}
	all, n := humanTable(&tb, 0)
	if n != 3 || all.rows[2][1] != "-" {
		t.Errorf("all rows: %d, NaN cell %q", n, all.rows[2][1])
	}
}

// TestTextFitsAScreen: on an 8-trial series of 600 regions, the terminal
// output of speedup, scalability, overhead and cluster fits in 100 lines by
// default, names no region wider than maxNameWidth, and --rows 0 prints
// every row.
func TestTextFitsAScreen(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "s.db")
	ok(t, nil, "synth", "--out", filepath.Join(dir, "runs"), "--processes", "1,2,3,4,5,6,7,8", "--regions", "600", "--noise", "0.02", "--imbalance", "0.1")
	for p := 1; p <= 8; p++ {
		ok(t, nil, "--db", url, "load", "-q", "-n", fmt.Sprintf("s%d", p), "-a", "synth", filepath.Join(dir, "runs", fmt.Sprintf("p%d", p)))
	}
	for _, c := range []string{"speedup", "scalability", "overhead", "cluster"} {
		r := ok(t, nil, "--db", url, c, "--where", `application == "synth"`, "--no-save")
		if n := strings.Count(r.stdout, "\n"); n > textLines {
			t.Errorf("%s: %d lines, want at most %d", c, n, textLines)
		}
		if !strings.Contains(r.stdout, "more rows of") {
			t.Errorf("%s: no line saying rows were left out", c)
		}
	}
	r := ok(t, nil, "--db", url, "--rows", "0", "speedup", "--where", `application == "synth"`, "--no-save")
	if n := strings.Count(r.stdout, "\n"); n < 8*601 {
		t.Errorf("--rows 0: %d lines, want every region of every experiment", n)
	}
}
