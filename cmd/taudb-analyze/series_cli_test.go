package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// mainInclusive reads the largest ".TAU application" inclusive value over
// the profile files of a folder, straight from the text.
func mainInclusive(t *testing.T, dir string) float64 {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "profile.*"))
	best := 0.0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, `".TAU application" `) {
				v, err := strconv.ParseFloat(strings.Fields(l)[5], 64)
				if err != nil {
					t.Fatal(err)
				}
				best = math.Max(best, v)
			}
		}
	}
	return best
}

// TestSpeedupWhereAndTrials loads two applications and selects each series
// by --where and by --trials; speedup and efficiency equal the values
// computed here from the raw profile files.
func TestSpeedupWhereAndTrials(t *testing.T) {
	var dirs []string
	for i := 0; i < 8; i++ {
		dirs = append(dirs, realdata.Real(t, fmt.Sprintf("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/%d", i)))
	}
	cpi := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		ok(t, nil, append(db, "db", "init")...)
		for i, d := range dirs {
			ok(t, nil, append(db, "load", "-n", fmt.Sprintf("mm-%d", i+1), "-a", "matmult", "-x", "east02", d)...)
		}
		ok(t, nil, append(db, "load", "-n", "cpi", "-a", "cpi", cpi)...)
		r := ok(t, nil, append(db, "--format", "json", "speedup", "--where", `application == "matmult" && threads >= 1`)...)
		var doc struct {
			Tables []struct {
				Name string
				Rows []map[string]any
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		rows := doc.Tables[0].Rows
		if len(rows) != 8 {
			t.Fatalf("%d program rows, want the 8 matmult trials", len(rows))
		}
		tb := mainInclusive(t, dirs[0])
		for i, row := range rows {
			p := float64(i + 1)
			tp := mainInclusive(t, dirs[i])
			s, e := row["speedup"].(float64), row["efficiency"].(float64)
			if math.Abs(s-tb/tp) > 1e-12 || math.Abs(e-tb/(tp*p)) > 1e-12 || row["p"].(float64) != p {
				t.Errorf("p=%v: speedup %v efficiency %v, want %v %v", p, s, e, tb/tp, tb/(tp*p))
			}
		}
		if rows[0]["speedup"].(float64) != 1 {
			t.Errorf("baseline speedup %v", rows[0]["speedup"])
		}
		// The same trials by --trials, and a subset.
		r2 := ok(t, nil, append(db, "--format", "json", "speedup", "--trials", "mm-1,mm-2,mm-3,mm-4,mm-5,mm-6,mm-7,mm-8", "--no-save")...)
		var doc2 struct {
			Tables []struct{ Rows []map[string]any }
		}
		json.Unmarshal([]byte(r2.stdout), &doc2)
		a, _ := json.Marshal(doc.Tables[0].Rows)
		b, _ := json.Marshal(doc2.Tables[0].Rows)
		if string(a) != string(b) {
			t.Errorf("--trials and --where disagree")
		}
		var listed []map[string]any
		lr := ok(t, nil, append(db, "--format", "json", "trials", "--where", `application == "cpi" || name == "mm-8"`)...)
		if err := json.Unmarshal([]byte(lr.stdout), &listed); err != nil || len(listed) != 2 || listed[0]["name"] != "mm-8" || listed[1]["name"] != "cpi" {
			t.Errorf("trials --where: %v %v", listed, err)
		}
		ok(t, nil, append(db, "scalability", "--where", `meta["Experiment"] == "east02"`, "--predict", "16")...)
		// A second copy of the np=2 run is a "version B" whose improvement
		// over A at p=2 is exactly 1.
		ok(t, nil, append(db, "load", "-n", "mm-2-again", "-a", "copy", dirs[1])...)
		ir := ok(t, nil, append(db, "--format", "json", "speedup", "--trials", "mm-1,mm-2", "--compare-set", "mm-2-again", "--no-save")...)
		var imp struct {
			Tables []struct{ Rows []map[string]any }
		}
		if err := json.Unmarshal([]byte(ir.stdout), &imp); err != nil || len(imp.Tables[0].Rows) != 1 ||
			imp.Tables[0].Rows[0]["improvement"].(float64) != 1 || imp.Tables[0].Rows[0]["p"].(float64) != 2 {
			t.Errorf("improvement: %v %v", imp, err)
		}
		fails(t, 1, "a trial is in both sets", append(db, "speedup", "--trials", "mm-1,mm-2", "--compare-set", "mm-2,mm-3")...)
		ok(t, nil, append(db, "multiregion", "--trials", "mm-1,mm-8", "--regions", "^MPI_")...)
		fails(t, 1, "the selection holds 1 trial(s)", append(db, "speedup", "--where", `name == "cpi"`)...)
		fails(t, 2, "--where:", append(db, "speedup", "--where", `nosuchfield > 1`)...)
		fails(t, 2, "choose the trials", append(db, "speedup")...)
		fails(t, 2, "multiset needs --by", append(db, "multiset", "--trials", "mm-1,mm-2")...)
	})
}

// TestParameterStudyRefused loads one 4-rank trial three times, as a
// power-cap sweep at constant p would look: speedup, scalability and
// overhead exit 2 and name the parameter study to run instead.
func TestParameterStudyRefused(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "ps.db")
	dir := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	for _, n := range []string{"cap-100", "cap-150", "cap-200"} {
		ok(t, nil, "--db", url, "load", "-q", "-n", n, "-a", "cpi", dir)
	}
	for _, a := range []string{"speedup", "scalability", "overhead"} {
		r := cli(t, nil, "--db", url, a, "--trials", "cap-100,cap-150,cap-200")
		if r.code != 2 || !strings.Contains(r.stderr, "all 3 trials ran with p = 4") || !strings.Contains(r.stderr, "multiset --by meta:KEY") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming the parameter study", a, r.code, r.stderr)
		}
	}
}

// TestMultiSetByExperiment: the trials of one application loaded under two
// experiments are grouped by the trial field "experiment", with the
// per-experiment split (the meta:KEY parameter study is
// analysis.TestMultiSetPowerCapSplit).
func TestMultiSetByExperiment(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "ms.db")
	for i, dir := range []string{"0", "1", "3"} {
		path := realdata.Real(t, "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/"+dir)
		exp := map[bool]string{true: "small", false: "large"}[i < 2]
		ok(t, nil, "--db", url, "load", "-q", "-n", "mm-"+dir, "-a", "mm", "-x", exp, path)
	}
	r := ok(t, nil, "--db", url, "--format", "json", "multiset", "--by", "experiment", "--where", `application == "mm"`, "--no-save")
	var doc struct {
		Tables []struct {
			Name string
			Rows []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	sets, split := map[string]bool{}, 0
	for _, tb := range doc.Tables {
		for _, row := range tb.Rows {
			if tb.Name == "series" {
				sets[row["set"].(string)] = true
			}
			if tb.Name == "split" {
				split++
				if row["computation_percent"].(float64)+row["mpi_percent"].(float64) < 99.9 {
					t.Errorf("split row %v: computation and MPI should hold the time of this MPI matmult", row)
				}
			}
		}
	}
	if len(sets) != 2 || !sets["small"] || !sets["large"] || split != 3 {
		t.Errorf("sets %v, split rows %d; want small and large, 3 rows", sets, split)
	}
}
