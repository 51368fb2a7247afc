package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHotLeafCallsBeyondInt32 loads a profile whose leaf "work" was called
// 3,000,000,000 times (more than TAUdb's INT columns hold) for
// 2,500,000,000 µs and reads it back from the database: `regions` reports
// 3e+09 calls and 2.5e9 / 3e9 = 0.8333… µs per call, on both databases.
// Before, the count was clamped to 2,147,483,647 on load without a word and
// the per-call time read 1.164 µs.
func TestHotLeafCallsBeyondInt32(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	profile := "2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n" +
		"\"main\" 1 3000000000 100 2500000100 0 GROUP=\"TAU_DEFAULT\"\n" +
		"\"work\" 3000000000 0 2500000000 2500000000 0 GROUP=\"TAU_USER\"\n0 aggregates\n"
	if err := os.WriteFile(filepath.Join(dir, "profile.0.0.0"), []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "db", "init")
		ok(t, nil, "--db", url, "load", "-n", "hot", dir)
		out := ok(t, nil, "--db", url, "--format", "csv", "regions", "--trial", "hot", "--no-save").stdout
		perCall := strconv.FormatFloat(2.5e9/3e9, 'g', -1, 64)
		if !strings.Contains(out, "\nwork,2.5e+09,") || !strings.Contains(out, ",3e+09,"+perCall+","+perCall+"\n") {
			t.Errorf("regions of the hot leaf, want 3e+09 calls and %s µs per call:\n%s", perCall, out)
		}
	})
}
