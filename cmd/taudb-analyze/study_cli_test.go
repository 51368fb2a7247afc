package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/profile"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// studyDoc is the JSON document `study` prints.
type studyDoc struct {
	Database string
	Trials   []struct {
		ID   int64
		Name string
		How  string
	}
	Results []struct {
		ID       int64
		Analysis string
		Trials   []int64
		Reused   bool
	}
	Report string
}

// resultDoc is the JSON document `results ID` prints.
type resultDoc struct {
	Analysis string
	Tables   []struct {
		Name string
		Rows []map[string]any
	}
}

func (d resultDoc) rows(t *testing.T, table string) []map[string]any {
	t.Helper()
	for _, tb := range d.Tables {
		if tb.Name == table {
			return tb.Rows
		}
	}
	t.Fatalf("%s result has no table %q", d.Analysis, table)
	return nil
}

// runStudy runs a study of scripts/ on the database url with its report in
// out, and decodes what it printed.
func runStudy(t *testing.T, url, name, out string) studyDoc {
	t.Helper()
	demoData(t)
	file := filepath.Join(realdata.Root(), "scripts", name)
	r := ok(t, nil, "--db", url, "--format", "json", "study", file, "--out", out)
	var d studyDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("study %s: stdout is not one JSON document: %v\n%s", name, err, r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("study %s with --format json wrote on stderr: %q", name, r.stderr)
	}
	return d
}

// storedResult fetches a stored result as JSON.
func storedResult(t *testing.T, url string, id int64) resultDoc {
	t.Helper()
	r := ok(t, nil, "--db", url, "--format", "json", "results", fmt.Sprint(id))
	var d resultDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// demoData writes the generated trials the example studies name (the
// demo's, synth.WriteDemo) if they are not there yet, and returns their
// folder.
func demoData(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(realdata.Root(), "testdata", "generated")
	if err := synth.WriteDemo(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mmTime is the run time of the generated MPI run at np processes,
// computed from the profile files alone: the largest inclusive TIME of the
// top-level region over the ranks.
func mmTime(t *testing.T, np int) float64 {
	t.Helper()
	return slices.Max(mmTrial(t, np).MainInclusive(0))
}

// mmTrial reads the generated MPI trial at np ranks from the files.
func mmTrial(t *testing.T, np int) *drg.Trial {
	t.Helper()
	tr, err := profile.Reader{Path: filepath.Join(demoData(t), "mpi", fmt.Sprintf("p%d", np))}.Read()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// mmMeanTime is the mean over the ranks of the main region's inclusive
// time, and mmUseful the 1-rank run's time outside MPI: overhead's T_p
// and T_s.
func mmMeanTime(t *testing.T, np int) float64 {
	t.Helper()
	main := mmTrial(t, np).MainInclusive(0)
	var s float64
	for _, v := range main {
		s += v
	}
	return s / float64(len(main))
}

func mmUseful(t *testing.T) float64 {
	t.Helper()
	tr := mmTrial(t, 1)
	useful := slices.Max(tr.MainInclusive(0))
	for i := range tr.Regions {
		if strings.HasPrefix(tr.Regions[i].Name, "MPI_") {
			useful -= tr.Values[0].Exclusive[tr.Cell(tr.Regions[i].Flat, 0)]
		}
	}
	return useful
}

// TestScalabilityStudy runs scripts/scalability.yaml on the embedded
// database and on PostgreSQL: the five generated trials loaded, speedup T(1)/T(p) and
// efficiency speedup/p as computed from the files, the scalability model
// stored, a report with both pages; a second run reuses every trial and
// result and stores nothing new.
func TestScalabilityStudy(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "db", "init")
		out := t.TempDir()
		d := runStudy(t, url, "scalability.yaml", out)
		if len(d.Trials) != 5 || len(d.Results) != 2 {
			t.Fatalf("trials %d results %d, want 5 and 2", len(d.Trials), len(d.Results))
		}
		for i, tr := range d.Trials {
			if tr.Name != fmt.Sprintf("mpi-np%d", synth.DemoProcesses[i]) || tr.How != "loaded" {
				t.Errorf("trial %d: %+v", i, tr)
			}
		}
		sp := storedResult(t, url, d.Results[0].ID)
		if sp.Analysis != "speedup" {
			t.Fatalf("first result is %q", sp.Analysis)
		}
		t1 := mmTime(t, 1)
		for _, row := range sp.rows(t, "program") {
			p := row["p"].(float64)
			tp := mmTime(t, int(p))
			want := t1 / tp
			if got := row["speedup"].(float64); math.Abs(got-want) > 1e-12*want {
				t.Errorf("p=%v: speedup %v, from the files %v", p, got, want)
			}
			if got := row["efficiency"].(float64); math.Abs(got-want/p) > 1e-12 {
				t.Errorf("p=%v: efficiency %v, want %v", p, got, want/p)
			}
		}
		if sc := storedResult(t, url, d.Results[1].ID); sc.Analysis != "scalability" || len(sc.Tables) == 0 {
			t.Errorf("second result: %+v", sc.Analysis)
		}
		for _, page := range []string{"index.html", "01-speedup.html", "02-scalability.html"} {
			if _, err := os.Stat(filepath.Join(out, page)); err != nil {
				t.Errorf("report: %v", err)
			}
		}
		if d.Report != filepath.Join(out, "index.html") {
			t.Errorf("report %q", d.Report)
		}

		again := runStudy(t, url, "scalability.yaml", t.TempDir())
		for _, tr := range again.Trials {
			if tr.How != "reused" {
				t.Errorf("second run: trial %+v not reused", tr)
			}
		}
		for i, r := range again.Results {
			if !r.Reused || r.ID != d.Results[i].ID {
				t.Errorf("second run: result %+v, first run stored %d", r, d.Results[i].ID)
			}
		}
		results := ok(t, nil, "--db", url, "--format", "json", "results")
		var list []any
		if err := json.Unmarshal([]byte(results.stdout), &list); err != nil || len(list) != 2 {
			t.Errorf("after two runs the database holds %d results (%v), want 2", len(list), err)
		}
	})
}

// TestOverheadAndClusteringStudies runs the other two example studies on
// one embedded database (the second reuses the matmult trials the first
// loaded) and checks their outputs: SCALEA's identity identified +
// unidentified = T_o for every experiment, T_o = T(p) − T_s/p from the
// files (the mean rank's T(p), T_s the 1-rank run's time outside MPI),
// every category equal to what the generator put in (synth.DemoMPI), the
// imbalance of the 16-rank run, and the clusters covering every thread
// once.
func TestOverheadAndClusteringStudies(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "taudb.db")
	od := runStudy(t, url, "overhead.yaml", t.TempDir())
	if len(od.Trials) != 5 || len(od.Results) != 2 || od.Results[0].Analysis != "overhead" || od.Results[1].Analysis != "imbalance" {
		t.Fatalf("overhead study: %+v", od)
	}
	ov := storedResult(t, url, od.Results[0].ID)
	ts := mmUseful(t)
	for _, row := range ov.rows(t, "totals") {
		p := row["p"].(float64)
		to, id, un := row["t_o"].(float64), row["identified"].(float64), row["unidentified"].(float64)
		if id+un != to {
			t.Errorf("p=%v: identified %v + unidentified %v != T_o %v", p, id, un, to)
		}
		if want := mmMeanTime(t, int(p)) - ts/p; math.Abs(to-want) > 1e-9*math.Abs(ts) {
			t.Errorf("p=%v: T_o %v, T(p) − T_s/p from the files %v", p, to, want)
		}
		truth := synth.DemoMPI.Overheads(int(p))
		for col, want := range map[string]float64{"t_o": truth.To, "data_movement": truth.DataMovement,
			"synchronization": truth.Synchronization, "control_of_parallelism": truth.Control,
			"loss_of_parallelism": truth.Loss, "unidentified": truth.Unidentified} {
			if got := row[col].(float64); math.Abs(got-want) > 1e-6*truth.Tp {
				t.Errorf("p=%v: %s %v, the generator put in %v", p, col, got, want)
			}
		}
	}
	if im := storedResult(t, url, od.Results[1].ID); len(im.Tables) == 0 || od.Results[1].Trials[0] != od.Trials[4].ID {
		t.Errorf("imbalance of mpi-np16: %+v", od.Results[1])
	}

	cd := runStudy(t, url, "clustering.yaml", t.TempDir())
	if len(cd.Trials) != 3 || len(cd.Results) != 2 {
		t.Fatalf("clustering study: %+v", cd)
	}
	if cd.Trials[0].How != "reused" || cd.Trials[1].How != "reused" || cd.Trials[2].How != "loaded" {
		t.Errorf("clustering study should reuse mpi-np8 and mpi-np16 and load the OpenMP run: %+v", cd.Trials)
	}
	for i, threads := range []int{8 + 16, 24} {
		cl := storedResult(t, url, cd.Results[i].ID)
		total := 0
		for _, row := range cl.rows(t, "sizes") {
			total += int(row["size"].(float64))
		}
		if total != threads || len(cl.rows(t, "membership")) != threads {
			t.Errorf("cluster %d: sizes add up to %d, %d memberships; want %d threads", i, total, len(cl.rows(t, "membership")), threads)
		}
	}
}

// TestStudyBadFiles checks that a study with a mistake fails before any
// work, naming the file, the line and the problem, and leaves no database
// behind.
func TestStudyBadFiles(t *testing.T) {
	dir := t.TempDir()
	mm := filepath.Join(demoData(t), "mpi", "p1")
	cases := []struct {
		name, text, want string
	}{
		{"typo", "title: x\nanlyses:\n  - run: speedup\n",
			`typo.yaml:2: unknown key "anlyses": did you mean "analyses"? (known: title, database, trials, analyses, report)`},
		{"trialkey", "trials:\n  - name: a\n    pth: " + mm + "\n",
			`trialkey.yaml:3: unknown key "pth": did you mean "path"? (known: name, path, application, experiment, format, where, view)`},
		{"missing", "trials:\n  - name: a\n    path: " + mm + "\n  - name: b\n    path: no/such/run\nanalyses:\n  - run: speedup\n",
			`missing.yaml:4: trial "b": path ` + filepath.Join(dir, "no/such/run") + ` does not exist`},
		{"unknown", "trials:\n  - name: a\n    path: " + mm + "\nanalyses:\n  - run: speedup\n  - run: spedup\n",
			`unknown.yaml:6: unknown analysis "spedup": did you mean "speedup"?`},
		{"param", "trials:\n  - name: a\n    path: " + mm + "\nanalyses:\n  - run: scalability\n    with:\n      predct: 16\n",
			`param.yaml:7: scalability: unknown parameter "predct" (scalability takes: `},
		{"value", "analyses:\n  - run: scalability\n    with: {predict: sixteen}\n",
			`value.yaml:3: scalability: parameter predict: bad value "sixteen"`},
		{"reserved", "analyses:\n  - run: speedup\n    with:\n      where: 'true'\n",
			`reserved.yaml:4: speedup: parameter "where": the study sets the trials itself`},
		{"twice", "trials:\n  - name: a\n    path: " + mm + "\n  - name: a\n    path: " + mm + "\n",
			`twice.yaml:4: trial "a" is listed twice (first at line 2)`},
		{"kind", "analyses: speedup\n", `kind.yaml:1: analyses: want a list of analyses, not a single value`},
		// The line is the YAML parser's (it reports where it gave up).
		{"syntax", "analyses:\n  - run: speedup\n    trials: [a, b\n", `syntax.yaml:2: not valid YAML: did not find expected ',' or ']'`},
		{"empty", "", `empty.yaml: empty study`},
		{"noname", "trials:\n  - path: " + mm + "\n", `noname.yaml:2: trial ` + mm + `: a trial to load needs a name`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, c.name+".yaml")
			if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(t.TempDir(), "taudb.db")
			r := cli(t, nil, "--db", "sqlite:"+db, "study", file)
			if r.code != 1 || !strings.Contains(r.stderr, "taudb-analyze: "+file[:len(file)-len(c.name+".yaml")]+c.want) || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", r.code, r.stdout, r.stderr, c.want)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("a failed study created the database (%v)", err)
			}
		})
	}
}

// TestStudyTrialNotInDatabase: a trial named but not loaded by the study
// must exist; the study fails at that line before loading anything.
func TestStudyTrialNotInDatabase(t *testing.T) {
	dir := t.TempDir()
	mm := filepath.Join(demoData(t), "mpi", "p1")
	file := filepath.Join(dir, "s.yaml")
	text := "trials:\n  - name: a\n    path: " + mm + "\n  - name: ghost\nanalyses:\n  - run: speedup\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "taudb.db")
	r := cli(t, nil, "--db", url, "study", file)
	if r.code != 1 || !strings.Contains(r.stderr, file+`:4: `) || !strings.Contains(r.stderr, `"ghost"`) {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
	db, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := storetest.Query(t, db, "SELECT count(*) FROM trial"); n[0][0] != "0" {
		t.Errorf("%s trials loaded before the error", n[0][0])
	}
}
