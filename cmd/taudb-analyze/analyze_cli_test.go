package main

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

var storedAs = regexp.MustCompile(`stored as result (\d+)`)

// TestAnalysesStoredAndReprinted runs every single-trial analysis with the
// binary on both databases, checks numbers against independent values, and
// checks that `results ID --format json` prints the same document later,
// read back from the database.
func TestAnalysesStoredAndReprinted(t *testing.T) {
	cpi := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	wrap := realdata.Real(t, "UO-OACISS-tau2/examples/wrap")
	xgc := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk")
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		ok(t, nil, append(db, "db", "init")...)
		ok(t, nil, append(db, "load", "-n", "cpi", cpi)...)
		ok(t, nil, append(db, "load", "-n", "wrap", wrap)...)
		ok(t, nil, append(db, "load", "-n", "xgc", xgc)...)

		runs := [][]string{
			{"imbalance", "--trial", "cpi", "--inclusive"},
			{"imbalance", "--trial", "cpi", "--callpath"},
			{"regions", "--trial", "cpi", "--top", "5"},
			{"summary", "--trial", "cpi", "--by", "process"},
			{"correlate", "--trial", "cpi"},
			{"compare", "--trial", "cpi", "--trial", "wrap"},
			{"ratio", "--trial", "xgc", "--name", "IPC", "--expr", "PAPI_TOT_INS / PAPI_TOT_CYC"},
		}
		for _, args := range runs {
			r := ok(t, nil, append(append(db, "--format", "json"), args...)...)
			var doc map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("%v: stdout is not JSON: %v", args, err)
			}
			m := storedAs.FindStringSubmatch(r.stderr)
			if m == nil {
				t.Fatalf("%v: no result id in %q", args, r.stderr)
			}
			again := ok(t, nil, append(db, "--format", "json", "results", m[1])...)
			var doc2 map[string]any
			if err := json.Unmarshal([]byte(again.stdout), &doc2); err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(doc)
			b, _ := json.Marshal(doc2)
			if string(a) != string(b) {
				t.Errorf("%v: results %s prints another document:\n%s\n%s", args, m[1], a, b)
			}
			if args[0] == "imbalance" && args[3] == "--inclusive" {
				checkMPIInitMin(t, doc)
			}
		}
		list := ok(t, nil, append(db, "--format", "json", "results")...)
		var infos []store.ResultInfo
		if err := json.Unmarshal([]byte(list.stdout), &infos); err != nil || len(infos) != len(runs) {
			t.Errorf("results lists %d (%v), want %d", len(infos), err, len(runs))
		}
		// --no-save stores nothing.
		ok(t, nil, append(db, "imbalance", "--trial", "cpi", "--no-save")...)
		list = ok(t, nil, append(db, "--format", "json", "results")...)
		if err := json.Unmarshal([]byte(list.stdout), &infos); err != nil || len(infos) != len(runs) {
			t.Errorf("--no-save stored a result: %d", len(infos))
		}
		// Errors: unknown trial, bad expression, bad flag, unknown result.
		fails(t, 1, `no such trial`, append(db, "imbalance", "--trial", "nosuch")...)
		fails(t, 1, "unexpected token EOF (1:19)", append(db, "ratio", "--trial", "xgc", "--name", "X", "--expr", "PAPI_TOT_INS / (1 +")...)
		fails(t, 1, `unknown metric "NOPE"`, append(db, "ratio", "--trial", "xgc", "--name", "X", "--expr", "NOPE / 2")...)
		fails(t, 2, "unknown flag: --bogus", append(db, "regions", "--bogus")...)
		fails(t, 2, "compare needs --trial twice", append(db, "compare", "--trial", "cpi")...)
		fails(t, 2, "the database holds 3 trials", append(db, "summary")...)
		fails(t, 1, "no such result", append(db, "results", "999")...)
		fails(t, 2, `want a result id`, append(db, "results", "x")...)
	})
}

// checkMPIInitMin: the imbalance of MPI_Init() inclusive on tau-cpi-mpi has
// min 17983 on rank 0 (Hatchet's oracle, SOURCES.md O1).
func checkMPIInitMin(t *testing.T, doc map[string]any) {
	t.Helper()
	tables := doc["tables"].([]any)
	rows := tables[0].(map[string]any)["rows"].([]any)
	for _, r := range rows {
		row := r.(map[string]any)
		if row["region"] == "MPI_Init()" {
			if row["min"].(float64) != 17983 || row["min_thread"] != "0.0.0" {
				t.Errorf("MPI_Init(): %v", row)
			}
			return
		}
	}
	t.Errorf("no MPI_Init() row in %v", rows)
}

// TestSaveMetricVisibleInViews: a ratio saved with --save-metric is a
// derived TAUdb metric whose MEAN rows in interval_mean_summary equal the
// per-node means of PAPI_TOT_INS/PAPI_TOT_CYC computed here from the file.
func TestSaveMetricVisibleInViews(t *testing.T) {
	xgc := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/HardwareCounterBasicAnalysis/xgc-nosamples.ppk")
	tr, err := reader.Read(xgc, "")
	if err != nil {
		t.Fatal(err)
	}
	ins, cyc := tr.MetricIndex("PAPI_TOT_INS"), tr.MetricIndex("PAPI_TOT_CYC")
	nt := len(tr.Threads)
	var want []float64
	for n := range tr.Nodes {
		var sum float64
		k := 0
		for th := 0; th < nt; th++ {
			c := n*nt + th
			if tr.Present.Get(c) {
				sum += tr.Values[ins].Inclusive[c] / tr.Values[cyc].Inclusive[c]
				k++
			}
		}
		if k > 0 {
			want = append(want, sum/float64(k))
		}
	}
	sort.Float64s(want)
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		ok(t, nil, append(db, "db", "init")...)
		ok(t, nil, append(db, "load", "-n", "xgc", xgc)...)
		ok(t, nil, append(db, "ratio", "--trial", "xgc", "--name", "IPC", "--expr", "PAPI_TOT_INS / PAPI_TOT_CYC", "--save-metric", "--no-save")...)
		fails(t, 1, `already has a metric named "IPC"`, append(db, "ratio", "--trial", "xgc", "--name", "IPC", "--expr", "PAPI_TOT_INS / PAPI_TOT_CYC", "--save-metric")...)
		s, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		derived := storetest.Query(t, s, `SELECT derived FROM metric WHERE name = 'IPC'`)
		if len(derived) != 1 || (derived[0][0] != "true" && derived[0][0] != "1") {
			t.Errorf("metric row %v", derived)
		}
		rows := storetest.Query(t, s, `SELECT v.inclusive FROM interval_mean_summary v JOIN metric m ON m.id = v.metric WHERE m.name = 'IPC' ORDER BY v.inclusive`)
		if len(rows) != len(want) {
			t.Fatalf("%d MEAN rows for IPC, want %d", len(rows), len(want))
		}
		for i, r := range rows {
			got, err := strconv.ParseFloat(r[0], 64)
			if err != nil || math.Abs(got-want[i]) > 1e-12*want[i] {
				t.Errorf("row %d: %s, want %v", i, r[0], want[i])
			}
		}
	})
}
