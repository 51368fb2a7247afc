package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReportReadsOneMetric writes a report of one two-metric trial three
// ways: with analyses of one metric (imbalance, summary), which read that
// metric alone; with an analysis that reads every metric beside them
// (correlate), which reads the whole trial; and with --metric naming the
// counter. The imbalance page is the same read either way, and the
// verbose log says how many metrics were read. The analysis commands read
// so too: imbalance its metric alone, correlate the whole trial.
func TestReportReadsOneMetric(t *testing.T) {
	dir := t.TempDir()
	db := []string{"--db", "sqlite:" + filepath.Join(dir, "taudb.db")}
	ok(t, nil, "synth", "--out", filepath.Join(dir, "in"), "--processes", "6", "--regions", "7", "--metrics", "2", "--imbalance", "0.4")
	ok(t, nil, append(db, "db", "init")...)
	ok(t, nil, append(db, "load", "-n", "two", filepath.Join(dir, "in", "p6"))...)
	pages := map[string]string{}
	for _, c := range []struct{ analyses, metric, read string }{
		{"imbalance,summary", "", "1 metrics"},
		{"imbalance,correlate", "", "2 metrics"},
		{"imbalance,summary", "PAPI_TOT_CYC", "1 metrics"},
	} {
		out := filepath.Join(t.TempDir(), "r")
		args := append(db, "-v", "report", "--out", out, "--trial", "two", "--analyses", c.analyses)
		if c.metric != "" {
			args = append(args, "--metric", c.metric)
		}
		r := ok(t, nil, args...)
		if !strings.Contains(r.stderr, "call-graph nodes, "+c.read) {
			t.Errorf("report --analyses %s --metric %q: the log does not say %q:\n%s", c.analyses, c.metric, c.read, r.stderr)
		}
		pages[c.analyses+c.metric] = readFile(t, filepath.Join(out, "01-imbalance.html"))
	}
	for cmd, read := range map[string]string{"imbalance": "1 metrics", "correlate": "2 metrics"} {
		if r := ok(t, nil, append(db, "-v", cmd, "--trial", "two", "--no-save")...); !strings.Contains(r.stderr, "call-graph nodes, "+read) {
			t.Errorf("%s: the log does not say %q:\n%s", cmd, read, r.stderr)
		}
	}
	if pages["imbalance,summary"] != pages["imbalance,correlate"] {
		t.Error("the imbalance page differs between the trial read with its time metric alone and read whole")
	}
	if pages["imbalance,summary"] == pages["imbalance,summaryPAPI_TOT_CYC"] || !strings.Contains(pages["imbalance,summaryPAPI_TOT_CYC"], "PAPI_TOT_CYC") {
		t.Error("the imbalance page of --metric PAPI_TOT_CYC is not of that metric")
	}
}
