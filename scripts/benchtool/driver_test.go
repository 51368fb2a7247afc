package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTinyRun runs the whole driver in tiny mode against the PostgreSQL of
// TAUDB_TEST_PG_URL and checks that every row of the table has a positive
// figure and reference. It skips without the variable, and fails instead
// when TAUDB_REQUIRE_PG=1.
func TestTinyRun(t *testing.T) {
	pg := os.Getenv("TAUDB_TEST_PG_URL")
	if pg == "" {
		if os.Getenv("TAUDB_REQUIRE_PG") == "1" {
			t.Fatal("TAUDB_TEST_PG_URL is not set (TAUDB_REQUIRE_PG=1)")
		}
		t.Skip("TAUDB_TEST_PG_URL is not set")
	}
	// A bound on a hang, not a speed check: generous, as a loaded 2-core
	// machine took 56 s once.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "table.md")
	var stdout, log bytes.Buffer
	if err := run(ctx, []string{"-mode", "tiny", "-pg", pg, "-repo", "../..", "-out", out}, &stdout, &log); err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(file) != stdout.String() {
		t.Error("the -out file differs from the printed table")
	}
	if n := strings.Count(stdout.String(), "\n"); n < 2+20 {
		t.Errorf("the table has %d lines:\n%s", n, stdout.String())
	}
	// The rows are checked on the values, the table only on its shape.
	steps := map[int]bool{}
	for _, r := range lastRows {
		steps[r.Step] = true
		if !(r.Value > 0) || !(r.Ref > 0) {
			t.Errorf("row %d %q: figure %g, reference %g; want both positive", r.Step, r.Figure, r.Value, r.Ref)
		}
	}
	for s := 1; s <= 6; s++ {
		if !steps[s] {
			t.Errorf("no row of step %d", s)
		}
	}
}
