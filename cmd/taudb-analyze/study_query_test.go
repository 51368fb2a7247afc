package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudyQuery: a study entry's query restricts a single-trial analysis
// as --query does on the command line: the stored result equals the CLI's,
// and a second run reuses it.
func TestStudyQuery(t *testing.T) {
	dir := writeQueryProfile(t)
	url := filepath.Join(t.TempDir(), "q.db")
	ok(t, nil, "--db", url, "load", "-n", "q", dir)
	const query = `MATCH ("*")->(".", p) WHERE p."group" = "MPI" OR p."time" >= 50`
	want := ok(t, nil, "--db", url, "--format", "json", "regions", "--trial", "q", "--no-save", "--query", query).stdout

	file := filepath.Join(t.TempDir(), "s.yaml")
	text := "trials:\n  - name: q\nanalyses:\n  - run: regions\n    query: '" + query + "'\n  - run: regions\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var d studyDoc
	if err := json.Unmarshal([]byte(ok(t, nil, "--db", url, "--format", "json", "study", file).stdout), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Results) != 2 || d.Results[0].ID == d.Results[1].ID {
		t.Fatalf("results %+v: want two distinct results (with and without the query)", d.Results)
	}
	got := ok(t, nil, "--db", url, "--format", "json", "results", jsonID(d.Results[0].ID)).stdout
	if tablesOf(t, got) != tablesOf(t, want) {
		t.Errorf("the study's restricted regions differ from the CLI's:\n%s\nwant\n%s", tablesOf(t, got), tablesOf(t, want))
	}
	if !strings.Contains(got, "Restricted by --query to 3 of the 4 call-graph nodes") {
		t.Errorf("the stored result does not say it was restricted: %s", got)
	}
	if all := ok(t, nil, "--db", url, "--format", "json", "results", jsonID(d.Results[1].ID)).stdout; !strings.Contains(all, "evil") {
		t.Errorf("the entry without a query was restricted too: %s", all)
	}
	if err := json.Unmarshal([]byte(ok(t, nil, "--db", url, "--format", "json", "study", file).stdout), &d); err != nil {
		t.Fatal(err)
	}
	if !d.Results[0].Reused || !d.Results[1].Reused {
		t.Errorf("a second run did not reuse both results: %+v", d.Results)
	}
}

// TestStudyQueryErrors: a query on a series analysis or a bad query is an
// error at the query's line, before any work.
func TestStudyQueryErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text, want string }{
		{"series", "analyses:\n  - run: speedup\n    query: 'MATCH (\".\")'\n",
			"series.yaml:3: speedup: query: restricts the call graph of one trial, and speedup analyses a series"},
		{"syntax", "analyses:\n  - run: imbalance\n\n    query: 'MATCH (\".\", p) WHERE p.\"name\" STARTS \"MPI\"'\n",
			"syntax.yaml:4: imbalance: query: column 38: expected WITH after STARTS"},
		{"metric", "analyses:\n  - run: ratio\n    with: {save-metric: true, name: R, expr: 'TIME/TIME'}\n    query: 'MATCH (\".\")'\n",
			"metric.yaml:4: ratio: query: save-metric stores the metric of the whole trial"},
	} {
		file := filepath.Join(dir, c.name+".yaml")
		if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		fails(t, 1, filepath.Join(dir, c.want), "--db", "sqlite:"+filepath.Join(dir, "none.db"), "study", file)
	}
}

func jsonID(id int64) string { b, _ := json.Marshal(id); return string(b) }

// tablesOf is the "tables" member of a result's JSON, re-encoded.
func tablesOf(t *testing.T, doc string) string {
	t.Helper()
	var r struct {
		Tables json.RawMessage `json:"tables"`
	}
	if err := json.Unmarshal([]byte(doc), &r); err != nil {
		t.Fatalf("%v: %s", err, doc)
	}
	return string(r.Tables)
}
