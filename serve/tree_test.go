package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
)

// getJSON fetches an API answer into v.
func getJSON(t *testing.T, ts interface{ Client() *http.Client }, base, path string, v any) int {
	t.Helper()
	res, err := ts.Client().Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res.StatusCode
}

// TestTreeAndIcicle checks the tree table's answers and the icicle's
// layout on the hand trial: main (100) with work (mean 65) and the
// hostile region (mean 10 over its 2 threads) under it.
func TestTreeAndIcicle(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	var roots treeAnswer
	getJSON(t, ts, ts.URL, "/api/trial/1/tree", &roots)
	if len(roots.Rows) != 1 || roots.Rows[0].Name != "main" || roots.Rows[0].Incl != 100 || roots.Rows[0].Children != 2 {
		t.Fatalf("roots: %+v", roots)
	}
	var kids treeAnswer
	getJSON(t, ts, ts.URL, "/api/trial/1/tree?parent="+itoa(roots.Rows[0].Node), &kids)
	got := map[string]treeRow{}
	for _, r := range kids.Rows {
		got[r.Name] = r
	}
	if w := got["work"]; w.Incl != 65 || w.Excl != 65 || w.Calls != 3 || w.Path != "main => work" {
		t.Errorf("work: %+v", w)
	}
	if h := got[hostileRegion]; h.Incl != 10 {
		t.Errorf("hostile region: %+v", h)
	}
	var m treeAnswer
	getJSON(t, ts, ts.URL, "/api/trial/1/tree?q=WORK", &m)
	if m.Matches != 2 { // the flat node and the callpath
		t.Errorf("filter WORK: %d matches", m.Matches)
	}
	var ic icicleAnswer
	getJSON(t, ts, ts.URL, "/api/trial/1/icicle", &ic)
	boxes := map[string]icicleBox{}
	for _, b := range ic.Boxes {
		boxes[b.Name] = b
	}
	// main spans [0, 1]; work [0, 0.65]; the hostile region [0.65, 0.75].
	if b := boxes["main"]; b.X0 != 0 || b.X1 != 1 || b.Depth != 0 {
		t.Errorf("main: %+v", b)
	}
	if b := boxes["work"]; b.X0 != 0 || b.X1 != 0.65 || b.Depth != 1 {
		t.Errorf("work: %+v", b)
	}
	if b := boxes[hostileRegion]; !near(float64(b.X0), 0.65) || !near(float64(b.X1), 0.75) {
		t.Errorf("hostile: %+v", b)
	}
	var bad map[string]string
	if code := getJSON(t, ts, ts.URL, "/api/trial/1/tree?parent=99", &bad); code != 404 || !strings.Contains(bad["error"], "node 99") {
		t.Errorf("parent 99: %d %v", code, bad)
	}
}

func near(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func itoa(i int) string { return strconv.Itoa(i) }

// TestTreeFlatPaged: a trial without callpaths lists its regions as roots,
// largest first, at most maxMatches of them.
func TestTreeFlatPaged(t *testing.T) {
	b, err := drg.NewBuilder([]drg.ThreadID{{Node: 0}, {Node: 1}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	for r := 0; r < 250; r++ {
		for th := 0; th < 2; th++ {
			add(b, "r"+itoa(r), th, m, float64(r), float64(r), 1)
		}
	}
	tr, err := b.Finish("flat", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	id, err := f.db.SaveTrial(context.Background(), tr, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := f.server(t, Options{})
	var ans treeAnswer
	getJSON(t, ts, ts.URL, "/api/trial/"+strconv.FormatInt(id, 10)+"/tree", &ans)
	if len(ans.Rows) != maxMatches || ans.Matches != 250 || !strings.Contains(ans.Note, "200 largest of 250") {
		t.Fatalf("%d rows, %d matches, note %q", len(ans.Rows), ans.Matches, ans.Note)
	}
	if ans.Rows[0].Name != "r249" || ans.Rows[199].Name != "r50" {
		t.Errorf("rows from %s to %s, want r249 to r50", ans.Rows[0].Name, ans.Rows[199].Name)
	}
}

// TestTreeQuery: the box takes a call-path query (package callquery) as
// well as a part of a name. On the hand trial "work" is a callpath node
// under main (its flat node is not in the call graph, being in a callpath).
func TestTreeQuery(t *testing.T) {
	ts := newFixture(t).server(t, Options{})
	paths := func(q string) (int, []string) {
		var ans treeAnswer
		code := getJSON(t, ts, ts.URL, "/api/trial/1/tree?q="+url.QueryEscape(q), &ans)
		var out []string
		for _, r := range ans.Rows {
			out = append(out, r.Path)
		}
		sort.Strings(out)
		return code, out
	}
	if _, got := paths(`MATCH (".", p) WHERE p."name" STARTS WITH "wo"`); strings.Join(got, "|") != "main => work" {
		t.Errorf("one node: %q", got)
	}
	if _, got := paths(`MATCH (".", p)->(".", q) WHERE q."name" = "work"`); strings.Join(got, "|") != "main|main => work" {
		t.Errorf("a path of two: %q", got)
	}
	// A condition on a metric: mean inclusive TIME over 50 µs picks main
	// (100) and work (65), not the hostile region (10).
	if _, got := paths(`match (".", p) where p."TIME (inc)" > 50`); strings.Join(got, "|") != "main|main => work" {
		t.Errorf("by value: %q", got)
	}
	var bad map[string]string
	if code := getJSON(t, ts, ts.URL, "/api/trial/1/tree?q="+url.QueryEscape(`MATCH (".", p) WHERE p."name" STARTS`), &bad); code != 400 || !strings.Contains(bad["error"], "column") {
		t.Errorf("a bad query: %d %v", code, bad)
	}
}

// TestTreePartial: with depth-limited callpaths the roots are the flat
// nodes with callpath children and those of regions no callpath holds.
func TestTreePartial(t *testing.T) {
	b, err := drg.NewBuilder([]drg.ThreadID{{Node: 0}})
	if err != nil {
		t.Fatal(err)
	}
	m := b.Metric("TIME")
	add(b, "main", 0, m, 40, 100, 1)
	add(b, "a", 0, m, 50, 50, 1)
	add(b, "main => a", 0, m, 50, 50, 1)
	add(b, "b", 0, m, 10, 10, 1) // no callpath holds b
	tr, err := b.Finish("partial", drg.Source{Format: "profile"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	id, err := f.db.SaveTrial(context.Background(), tr, store.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := f.server(t, Options{})
	var ans treeAnswer
	getJSON(t, ts, ts.URL, "/api/trial/"+strconv.FormatInt(id, 10)+"/tree", &ans)
	var roots []string
	for _, r := range ans.Rows {
		roots = append(roots, r.Path)
	}
	if strings.Join(roots, "|") != "main|b" { // largest inclusive first
		t.Errorf("roots %q, want main and b", roots)
	}
	_, body := get(t, ts, "/trial/"+strconv.FormatInt(id, 10)+"/tree")
	if !strings.Contains(body, "partial callpaths") {
		t.Error("the page does not say the callpaths are partial")
	}
}
