package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRulesTrial writes a TAU profile folder of p identical processes:
// main (mainExcl exclusive, mainIncl inclusive), halo_pack (TAU_USER, halo)
// and MPI_Send() (MPI, send), times in µs.
func writeRulesTrial(t *testing.T, p int, mainExcl, mainIncl, halo, send float64) string {
	t.Helper()
	dir := t.TempDir()
	for n := 0; n < p; n++ {
		body := fmt.Sprintf(`3 templated_functions_MULTI_TIME
# Name Calls Subrs Excl Incl ProfileCalls #
"main" 1 2 %g %g 0 GROUP="TAU_DEFAULT"
"halo_pack" 1 0 %g %g 0 GROUP="TAU_USER"
"MPI_Send()" 1 0 %g %g 0 GROUP="MPI"
0 aggregates
`, mainExcl, mainIncl, halo, halo, send, send)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("profile.%d.0.0", n)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// inProc runs the command line in-process and returns its JSON tables by
// name, each a list of rows.
func inProc(t *testing.T, args ...string) map[string][]map[string]any {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := runWith(args, &out, &errOut); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
	}
	var doc struct {
		Tables []struct {
			Name string
			Rows []map[string]any
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out.String())
	}
	tables := map[string][]map[string]any{}
	for _, tb := range doc.Tables {
		tables[tb.Name] = tb.Rows
	}
	return tables
}

// TestRulesChangeEveryAnalysis: one rules file that reclassifies the
// program's halo_pack (computation by default) as MPI data movement
// changes overhead, imbalance and summary alike.
//
// Trial "one": 1 process, main 100 µs inclusive (60 exclusive), halo_pack
// 30, MPI_Send 10. Trial "two": 2 processes, each main 50 inclusive (32
// exclusive), halo_pack 15, MPI_Send 3. By hand:
//
//	                      default rules     halo_pack is MPI data movement
//	summary/imbalance (two, per process or thread):
//	  computation         32 + 15 = 47      32
//	  mpi                 3                 3 + 15 = 18
//	overhead (baseline one, T_s = 100 − its data movement):
//	  T_s                 100 − 10 = 90     100 − 40 = 60
//	  p=1 T_o, data mvt   10, 10            40, 40
//	  p=2 T_o = 50 − T_s/2  5               20
//	  p=2 data movement   3                 18
//	  p=2 unidentified    5 − 3 = 2         20 − 18 = 2
func TestRulesChangeEveryAnalysis(t *testing.T) {
	db := []string{"--db", "sqlite:" + filepath.Join(t.TempDir(), "r.db"), "--format", "json"}
	one := writeRulesTrial(t, 1, 60, 100, 30, 10)
	two := writeRulesTrial(t, 2, 32, 50, 15, 3)
	inProcLoad(t, append(db[:2:2], "load", "-n", "one", "-a", "halo", one)...)
	inProcLoad(t, append(db[:2:2], "load", "-n", "two", "-a", "halo", two)...)
	rules := filepath.Join(t.TempDir(), "halo.yaml")
	if err := os.WriteFile(rules, []byte("rules:\n  - id: halo-pack\n    match: halo_pack\n    category: data movement\n    sub: halo packing\n    class: mpi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		extra         []string
		comp, mpi     float64
		haloClass     string
		to1, to2, dm2 float64
	}{
		{nil, 47, 3, "computation", 10, 5, 3},
		{[]string{"--rules", rules}, 32, 18, "mpi", 40, 20, 18},
	} {
		name := fmt.Sprint(c.extra)
		sum := inProc(t, append(append(db, "summary", "--trial", "two", "--by", "process", "--no-save"), c.extra...)...)
		for _, r := range sum["members"] {
			wantNum(t, name+" summary computation", r["computation"], c.comp)
			wantNum(t, name+" summary mpi", r["mpi"], c.mpi)
		}
		imb := inProc(t, append(append(db, "imbalance", "--trial", "two", "--no-save"), c.extra...)...)
		for _, r := range imb["split"] {
			wantNum(t, name+" imbalance computation", r["computation"], c.comp)
			wantNum(t, name+" imbalance mpi", r["mpi"], c.mpi)
		}
		for _, r := range imb["imbalance"] {
			if r["region"] == "halo_pack" && r["class"] != c.haloClass {
				t.Errorf("%s: imbalance class of halo_pack %v, want %s", name, r["class"], c.haloClass)
			}
		}
		ov := inProc(t, append(append(db, "overhead", "--trials", "one,two", "--no-save"), c.extra...)...)
		if len(ov["totals"]) != 2 || len(sum["members"]) != 2 || len(imb["split"]) != 2 {
			t.Fatalf("%s: %d experiments, %d members, %d threads", name, len(ov["totals"]), len(sum["members"]), len(imb["split"]))
		}
		seen := 0
		for _, r := range ov["totals"] {
			switch r["p"] {
			case 1.0:
				seen++
				wantNum(t, name+" p=1 T_o", r["t_o"], c.to1)
				wantNum(t, name+" p=1 data movement", r["data_movement"], c.to1)
			case 2.0:
				seen += 2
				wantNum(t, name+" p=2 T_o", r["t_o"], c.to2)
				wantNum(t, name+" p=2 data movement", r["data_movement"], c.dm2)
				wantNum(t, name+" p=2 unidentified", r["unidentified"], 2)
			}
		}
		if seen != 3 {
			t.Errorf("%s: overhead totals without the rows p=1 and p=2: %v", name, ov["totals"])
		}
	}
	// A bad rules file stops every command with its name and line.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("rules:\n  - match: halo_pack\n    category: data movement\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"summary", "--trial", "two"}, {"imbalance", "--trial", "two"}, {"overhead", "--trials", "one,two"}, {"multiset", "--by", "application", "--trials", "one,two"},
		{"report", "--out", filepath.Join(t.TempDir(), "rep"), "--trial", "two", "--analyses", "summary"}} {
		var out, errOut bytes.Buffer
		code := runWith(append(append(db, cmd...), "--rules", bad), &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), bad+":3: rule has no class") || out.Len() != 0 {
			t.Errorf("%v with a bad rules file: exit %d, stderr %q", cmd, code, errOut.String())
		}
	}
}

func inProcLoad(t *testing.T, args ...string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := runWith(args, &out, &errOut); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
	}
}

func wantNum(t *testing.T, what string, got any, want float64) {
	t.Helper()
	if g, ok := got.(float64); !ok || g != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
