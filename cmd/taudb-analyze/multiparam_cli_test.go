package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestScalabilityTwoParameters generates a two-parameter study with synth
// (T = 1e4 + 1e3·n/p + 2e3·log2(p) µs, n in metadata SIZE, 2 repetitions,
// 1% noise), loads it and models it with --param p --param meta:SIZE:
// the program's terms are n/p and log2(p), the generating ones.
func TestScalabilityTwoParameters(t *testing.T) {
	dir := t.TempDir()
	r := cli(t, nil, "synth", "--out", dir, "--processes", "2,4,8,16,32", "--sizes", "16,32,64,128", "--repetitions", "2",
		"--regions", "3", "--depth", "1", "--noise", "0.01", "--imbalance", "0", "--serial", "10000", "--parallel", "1000", "--log", "2000")
	if r.code != 0 {
		t.Fatalf("synth: %s", r.stderr)
	}
	paths := strings.Fields(r.stdout)
	if len(paths) != 40 || !strings.HasSuffix(paths[1], "p2-n16-r2") {
		t.Fatalf("synth wrote %d trials: %v", len(paths), paths[:2])
	}
	db := []string{"--db", "sqlite:" + filepath.Join(dir, "s.db")}
	for _, p := range paths {
		ok(t, nil, append(db, "load", "-a", "synth2", p)...)
	}
	out := ok(t, nil, append(db, "--format", "json", "scalability", "--where", `application == "synth2"`, "--no-save",
		"--param", "p", "--param", "meta:SIZE")...)
	var doc struct {
		Params   map[string]string
		Findings []string
		Tables   []struct{ Rows []map[string]any }
	}
	if err := json.Unmarshal([]byte(out.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	prog := doc.Tables[0].Rows[0]
	terms := prog["terms"].(string)
	if (terms != "p^-1 * meta:SIZE; log2(p)" && terms != "log2(p); p^-1 * meta:SIZE") || prog["repetitions_min"].(float64) != 2 || prog["points"].(float64) != 20 {
		t.Errorf("program: %v", prog)
	}
	if doc.Params["parameters"] != "p,meta:SIZE" || len(doc.Findings) == 0 {
		t.Errorf("params %v findings %v", doc.Params, doc.Findings)
	}
	fails(t, 2, "one --param", append(db, "scalability", "--where", `application == "synth2"`, "--param", "meta:SIZE")...)
	suggestTwoParameters(t, db)
}

// suggestTwoParameters: --suggest 2 --predict 128 on the study of
// TestScalabilityTwoParameters names two runs at the unmeasured p = 64 or
// 128 (every measured grid point is taken) and a measured SIZE, with the
// process-time p × time, and a finding.
func suggestTwoParameters(t *testing.T, db []string) {
	out := ok(t, nil, append(db, "--format", "json", "scalability", "--where", `application == "synth2"`, "--no-save",
		"--param", "p", "--param", "meta:SIZE", "--predict", "128", "--suggest", "2")...)
	var doc struct {
		Findings []string
		Tables   []struct {
			Name string
			Rows []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for _, tb := range doc.Tables {
		if tb.Name == "suggestions" {
			rows = tb.Rows
		}
	}
	if len(rows) != 2 {
		t.Fatalf("suggestions: %v", rows)
	}
	for _, r := range rows {
		p, size, tm, cost := r["x1"].(float64), r["x2"].(float64), r["run_time"].(float64), r["process_time"].(float64)
		if p != 64 && p != 128 || !strings.Contains(" 16 32 64 128 ", fmt.Sprintf(" %g ", size)) || math.Abs(cost-p*tm) > 1e-9*cost {
			t.Errorf("suggested run %v", r)
		}
	}
	if !strings.Contains(strings.Join(doc.Findings, "\n"), "To narrow the prediction at p, meta:SIZE = [128 128]") {
		t.Errorf("findings: %v", doc.Findings)
	}
}
