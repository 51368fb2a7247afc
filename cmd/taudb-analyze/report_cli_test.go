package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// writeHostileProfile writes a two-thread TAU profile folder whose region
// names hold markup, quotes and ampersands.
func writeHostileProfile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for n := 0; n < 2; n++ {
		body := fmt.Sprintf(`3 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls #
"main" 1 2 10 %d 0 GROUP="TAU_DEFAULT"
"<script>alert(1)</script>" 1 0 %d %d 0 GROUP="TAU_USER"
"say "hi" & 'bye'" 1 0 50 50 0 GROUP="TAU_USER"
0 aggregates
`, 60+100*(n+1), 100*(n+1), 100*(n+1))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("profile.%d.0.0", n)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReportCommand writes reports from stored results and from analyses
// run on the spot, and checks the index path, the pages and the escaping.
func TestReportCommand(t *testing.T) {
	var mm []string
	for i := 0; i < 3; i++ {
		mm = append(mm, realdata.Real(t, fmt.Sprintf("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/%d", i)))
	}
	hostile := writeHostileProfile(t)
	db := []string{"--db", "sqlite:" + filepath.Join(t.TempDir(), "taudb.db")}
	ok(t, nil, append(db, "db", "init")...)
	ok(t, nil, append(db, "load", "-n", `evil <b>"trial"</b> & co`, hostile)...)
	for i, d := range mm {
		ok(t, nil, append(db, "load", "-n", fmt.Sprintf("mm-%d", i+1), "-a", "matmult", d)...)
	}

	// Stored results.
	r := ok(t, nil, append(db, "imbalance", "--trial", "1")...)
	m := storedAs.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("imbalance did not say where it stored the result: %q", r.stderr)
	}
	out := filepath.Join(t.TempDir(), "stored")
	r = ok(t, nil, append(db, "report", "--out", out, "--results", m[1])...)
	idx := strings.TrimSpace(r.stdout)
	if idx != filepath.Join(out, "index.html") {
		t.Fatalf("report printed %q, want the index path", r.stdout)
	}
	page := readFile(t, filepath.Join(out, "01-imbalance.html"))
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "say &#34;hi&#34; &amp; &#39;bye&#39;",
		`evil &lt;b&gt;&#34;trial&#34;&lt;/b&gt; &amp; co`, `<script src="assets/echarts.min.js"></script>`, `class="chart"`} {
		if !strings.Contains(page, want) {
			t.Errorf("imbalance page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(1)") || strings.Contains(page, "<b>\"trial\"") {
		t.Error("imbalance page holds a raw hostile name")
	}
	if _, err := os.Stat(filepath.Join(out, "assets", "echarts.min.js")); err != nil {
		t.Error(err)
	}

	// On the spot: single trial, then a selection.
	out = filepath.Join(t.TempDir(), "spot")
	r = ok(t, nil, append(db, "report", "--out", out, "--trial", "1", "--analyses", "imbalance,regions,summary")...)
	if strings.TrimSpace(r.stdout) != filepath.Join(out, "index.html") {
		t.Fatalf("report printed %q", r.stdout)
	}
	for _, f := range []string{"01-imbalance.html", "02-regions.html", "03-summary.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	out = filepath.Join(t.TempDir(), "series")
	ok(t, nil, append(db, "report", "--out", out, "--where", `application == "matmult"`, "--analyses", "speedup,scalability,overhead,regions")...)
	index := readFile(t, filepath.Join(out, "index.html"))
	for _, f := range []string{"01-speedup.html", "02-scalability.html", "03-overhead.html", "04-regions.html", "06-regions.html"} {
		if !strings.Contains(index, `href="`+f+`"`) {
			t.Errorf("index does not link %s", f)
		}
	}
	sp := readFile(t, filepath.Join(out, "01-speedup.html"))
	if strings.Count(sp, `class="chart"`) != 2 || !strings.Contains(sp, `"ideal"`) {
		t.Error("speedup page lacks its two charts or the ideal line")
	}

	// Usage errors.
	fails(t, 2, "--out", append(db, "report", "--trial", "1")...)
	fails(t, 2, "not both", append(db, "report", "--out", out, "--results", m[1], "--trial", "1")...)
	fails(t, 2, "unknown analysis", append(db, "report", "--out", out, "--trial", "1", "--analyses", "nope")...)
	fails(t, 2, "two trials", append(db, "report", "--out", out, "--trial", "1", "--analyses", "speedup")...)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
