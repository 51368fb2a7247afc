package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// queryProfile is a one-thread profile with callpaths: main calls work
// and MPI_Send(), and a region whose name carries an escape sequence, a
// line feed and markup (a hostile name).
const queryProfile = "6 templated_functions_MULTI_TIME\n" +
	"# Name Calls Subrs Excl Incl ProfileCalls\n" +
	"\"main\" 1 3 10 100 0 GROUP=\"TAU_DEFAULT\"\n" +
	"\"work\" 1 0 50 50 0 GROUP=\"TAU_USER\"\n" +
	"\"MPI_Send()\" 4 0 30 30 0 GROUP=\"MPI\"\n" +
	"\"main => work\" 1 0 50 50 0 GROUP=\"TAU_CALLPATH\"\n" +
	"\"main => MPI_Send()\" 4 0 30 30 0 GROUP=\"TAU_CALLPATH\"\n" +
	"\"main => evil\x1b]0;pwn\x07<b>\" 1 0 10 10 0 GROUP=\"TAU_CALLPATH\"\n" +
	"0 aggregates\n"

func writeQueryProfile(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "q")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "profile.0.0.0"), []byte(queryProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestQueryRestrictsAnAnalysis(t *testing.T) {
	dir := writeQueryProfile(t)
	url := filepath.Join(t.TempDir(), "q.db")
	ok(t, nil, "--db", url, "load", "-n", "q", dir)
	r := ok(t, nil, "--db", url, "--format", "json", "regions", "--trial", "q", "--no-save",
		"--query", `MATCH ("*")->(".", p) WHERE p."group" = "MPI" OR p."time" >= 50`)
	var res struct {
		Params   map[string]string `json:"params"`
		Findings []string          `json:"findings"`
		Tables   []struct {
			Name    string `json:"name"`
			Columns []struct {
				Name string   `json:"name"`
				Text []string `json:"text"`
				Num  []any    `json:"num"`
			} `json:"columns"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if !strings.Contains(r.stdout, `"query": "MATCH`) || !strings.HasPrefix(res.Findings[0], "Restricted by --query to 3 of the 4 call-graph nodes (3 regions).") {
		t.Errorf("params %v, findings %q", res.Params, res.Findings)
	}
	// main (the root, on the matched paths), work and MPI_Send(); not evil.
	if strings.Contains(r.stdout, "evil") || !strings.Contains(r.stdout, `"work"`) || !strings.Contains(r.stdout, `"MPI_Send()"`) {
		t.Errorf("regions: %s", r.stdout)
	}
}

func TestBadQueriesExit2WithTheColumn(t *testing.T) {
	dir := writeQueryProfile(t)
	url := filepath.Join(t.TempDir(), "q.db")
	ok(t, nil, "--db", url, "load", "-n", "q", dir)
	fails(t, 2, `--query: column 38: expected WITH after STARTS, found string "MPI"`,
		"--db", url, "imbalance", "--trial", "q", "--no-save", "--query", `MATCH (".", p) WHERE p."name" STARTS "MPI"`)
	fails(t, 2, `--query: column 24: trial "q" has no attribute "tme (inc)"`,
		"--db", url, "summary", "--trial", "q", "--no-save", "--query", `MATCH (".", p) WHERE p."tme (inc)" > 1`)
	fails(t, 2, `--query: column 1: expected MATCH`, "inspect", dir, "--query", `FIND (p)`)
	fails(t, 1, `--query matched no call-graph node of trial "q"`,
		"--db", url, "correlate", "--trial", "q", "--no-save", "--query", `MATCH (".", p) WHERE p."name" = "none"`)
}

func TestInspectQueryHostileName(t *testing.T) {
	dir := writeQueryProfile(t)
	url := filepath.Join(t.TempDir(), "q.db")
	ok(t, nil, "--db", url, "load", "-n", "q", dir)
	q := `MATCH (".", p) WHERE p."name" CONTAINS "evil"`
	for _, args := range [][]string{
		{"inspect", dir, "--query", q},
		{"--db", url, "inspect", "--trial", "q", "--query", q},
		{"--db", url, "--format", "csv", "inspect", "--trial", "q", "--query", q},
	} {
		r := ok(t, nil, args...)
		if strings.ContainsAny(r.stdout, "\x1b\x07") || !strings.Contains(r.stdout, `evil\x1b]0;pwn\x07<b>`) {
			t.Errorf("%v: the name is not escaped: %q", args, r.stdout)
		}
		if !strings.Contains(r.stdout, "1 of the 4 call-graph nodes") && !slices.Contains(args, "csv") {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	// Stored, and the query names no metric: the values of the matched
	// node only are read, and printed.
	r := ok(t, nil, "--db", url, "-v", "inspect", "--trial", "q", "--query", q)
	if !strings.Contains(r.stderr, "the query names no metric: read trial 1 with the values of the 1 matched") || !strings.Contains(r.stdout, "1      10              10              1") {
		t.Errorf("stored structural query: %q %q", r.stdout, r.stderr)
	}
	r = ok(t, nil, "inspect", dir, "--query", `MATCH ("*", p) WHERE p."time (inc)" >= 30`)
	if !strings.Contains(r.stdout, "3 of the 4") || !strings.Contains(r.stdout, "main => MPI_Send()  1      30") {
		t.Errorf("values: %q", r.stdout)
	}
}

func TestQueryInReportAndCluster(t *testing.T) {
	dir := writeQueryProfile(t)
	url := filepath.Join(t.TempDir(), "q.db")
	ok(t, nil, "--db", url, "load", "-n", "q", dir)
	out := filepath.Join(t.TempDir(), "rep")
	ok(t, nil, "--db", url, "report", "--out", out, "--trial", "q", "--analyses", "regions",
		"--query", `MATCH (".", p) WHERE p."name" = "work"`)
	page, err := os.ReadFile(filepath.Join(out, "01-regions.html"))
	if err != nil {
		t.Fatal(err)
	}
	// work alone matched; main is kept as the reference of percentages.
	if !strings.Contains(string(page), "Restricted by --query to 1 of the 4 call-graph nodes (2 regions). The query did not match the main region") {
		t.Errorf("the report page does not say what the query kept")
	}
	fails(t, 2, "--query needs --trial", "--db", url, "report", "--out", out+"2", "--where", "true", "--query", `MATCH (p)`)
	fails(t, 2, "--query needs --trial", "--db", url, "cluster", "--trials", "q", "--query", `MATCH (p)`)
	fails(t, 2, "--query: column 7: expected \"(\" to open a node pattern", "--db", url, "cluster", "--trial", "q", "--query", `MATCH p`)
}

// queryParam is the query in a JSON result's parameters.
var queryParam = regexp.MustCompile(`"query": "(?:[^"\\]|\\.)*",?`)

// TestStructuralQueryReadsPartOfTheTrial: a query naming no metric reads
// the values of the matched nodes only (LoadTrialPart) and must give the
// same analysis as the same node set chosen by a query that names a metric
// (which reads the whole trial): "TIME" IS NOT NAN holds for every node.
func TestStructuralQueryReadsPartOfTheTrial(t *testing.T) {
	dir := t.TempDir()
	url := filepath.Join(dir, "s.db")
	ok(t, nil, "synth", "--out", filepath.Join(dir, "s"), "--processes", "4", "--regions", "30", "--metrics", "2")
	ok(t, nil, "--db", url, "load", "-n", "s", filepath.Join(dir, "s", "p4"))
	shape := `MATCH ("*")->(".", p) WHERE p."name" CONTAINS "region_1(" OR p."name" CONTAINS "region_2(" AND p IS LEAF`
	for _, an := range [][]string{{"imbalance", "--callpath"}, {"regions", "--top", "0"}, {"summary"}, {"correlate"}} {
		var outs [2]string
		for i, q := range []string{shape, shape + ` AND p."TIME" IS NOT NAN`} {
			args := append([]string{"--db", url, "-v", "--format", "json"}, an...)
			r := ok(t, nil, append(args, "--trial", "s", "--no-save", "--query", q)...)
			partial := strings.Contains(r.stderr, "the query names no metric: read trial")
			if partial != (i == 0) {
				t.Errorf("%s query %d: partial read %v; stderr %s", an[0], i, partial, r.stderr)
			}
			outs[i] = queryParam.ReplaceAllString(r.stdout, "")
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: the partial read gives another result:\n%s\n%s", an[0], outs[0], outs[1])
		}
		if !strings.Contains(outs[0], "Restricted by --query to") {
			t.Errorf("%s: %s", an[0], outs[0])
		}
	}
}
