package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestRoundTripRealTrials saves every real trial of the test data into one
// database and loads each back: the loaded trial equals the saved one value
// by value (threads, metrics, regions, nodes, values, presence, calls,
// counters, metadata, snapshots), up to the documented differences.
func TestRoundTripRealTrials(t *testing.T) {
	trials := realTrials(t)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		ids := make([]int64, len(trials))
		for i, rt := range trials {
			id, err := db.SaveTrial(ctx, rt.trial, store.SaveOptions{})
			if err != nil {
				t.Fatalf("%s: %v", rt.rel, err)
			}
			ids[i] = id
		}
		for i, rt := range trials {
			got, err := db.LoadTrial(ctx, ids[i])
			if err != nil {
				t.Fatalf("%s: %v", rt.rel, err)
			}
			if d := compareTrials(roundTrip(rt.trial), got); len(d) > 0 {
				t.Errorf("%s (%s) came back different:\n  %s", rt.rel, describe(rt.trial), strings.Join(d, "\n  "))
			}
		}
	})
}

// TestRoundTripGenerated saves a synthetic trial with every feature and
// with Application and Experiment, and checks the load, the listing and
// the lookup by name and id.
func TestRoundTripGenerated(t *testing.T) {
	tr := genTrial(t, "generated", 12, 40)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: "gen-1", Application: "app", Experiment: "exp"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.LoadTrial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := roundTrip(tr)
		want.Name = "gen-1"
		want.Metadata = map[string]string{}
		for k, v := range tr.Metadata {
			want.Metadata[k] = v
		}
		want.Metadata["Application"], want.Metadata["Experiment"] = "app", "exp"
		if d := compareTrials(want, got); len(d) > 0 {
			t.Errorf("came back different:\n  %s", strings.Join(d, "\n  "))
		}

		id2, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		list, err := db.Trials(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].ID != id || list[0].Name != "gen-1" || list[0].Application != "app" || list[0].Experiment != "exp" ||
			list[0].Threads != 12 || !slices.Equal(list[0].Metrics, []string{"TIME", "PAPI_FP_OPS"}) ||
			list[0].DataSource != 1 || list[0].DataSourceName != "TAU profiles" || list[1].ID != id2 || list[1].Name != "generated" || list[1].Application != "" {
			t.Errorf("Trials = %+v", list)
		}
		for ref, want := range map[string]int64{"gen-1": id, "generated": id2, strconv.FormatInt(id2, 10): id2} {
			if got, err := db.FindTrial(ctx, ref); err != nil || got != want {
				t.Errorf("FindTrial(%q) = %d, %v; want %d", ref, got, err, want)
			}
		}
		if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.FindTrial(ctx, "generated"); !errors.Is(err, store.ErrAmbiguousTrial) || !strings.Contains(err.Error(), "2 trials are named") {
			t.Errorf("FindTrial of a name two trials bear: %v", err)
		}
		if _, err := db.FindTrial(ctx, "nosuch"); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("FindTrial(nosuch): %v", err)
		}
		if _, err := db.FindTrial(ctx, "999"); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("FindTrial(999): %v", err)
		}
		// A trial named after another trial's id: the bare token is
		// ambiguous, id:N and name:X are not.
		clash := *tr // saving only reads the trial: a shallow copy will do
		clash.Name = strconv.FormatInt(id, 10)
		idClash, err := db.SaveTrial(ctx, &clash, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ref := strconv.FormatInt(id, 10)
		if _, err := db.FindTrial(ctx, ref); !errors.Is(err, store.ErrAmbiguousTrial) ||
			!strings.Contains(err.Error(), fmt.Sprintf("is the id of trial %d and the name of trial(s) %d", id, idClash)) {
			t.Errorf("FindTrial(%q) with a trial of that name: %v", ref, err)
		}
		for r, want := range map[string]int64{"id:" + ref: id, "name:" + ref: idClash, "name: gen-1": id} {
			if got, err := db.FindTrial(ctx, r); err != nil || got != want {
				t.Errorf("FindTrial(%q) = %d, %v; want %d", r, got, err, want)
			}
		}
		if _, err := db.FindTrial(ctx, "id:gen-1"); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("FindTrial(id:gen-1): %v", err)
		}
		if _, err := db.LoadTrial(ctx, 999); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("LoadTrial(999): %v", err)
		}
		if err := db.DeleteTrial(ctx, 999); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("DeleteTrial(999): %v", err)
		}
		if _, err := db.Stats(ctx, 999, ""); !errors.Is(err, store.ErrNoTrial) {
			t.Errorf("Stats(999): %v", err)
		}
	})
}

// counts returns the number of rows of every table a trial fills, for the
// trial id (all rows of the table when id is 0).
func counts(t testing.TB, db *store.DB, id int64) map[string]int {
	t.Helper()
	q := map[string]string{
		"trial":               `SELECT COUNT(*) FROM trial WHERE id = $1 OR $1 = 0`,
		"thread":              `SELECT COUNT(*) FROM thread WHERE trial = $1 OR $1 = 0`,
		"metric":              `SELECT COUNT(*) FROM metric WHERE trial = $1 OR $1 = 0`,
		"timer":               `SELECT COUNT(*) FROM timer WHERE trial = $1 OR $1 = 0`,
		"timer_group":         `SELECT COUNT(*) FROM timer_group g WHERE g.timer IN (SELECT id FROM timer WHERE trial = $1) OR $1 = 0`,
		"timer_parameter":     `SELECT COUNT(*) FROM timer_parameter p WHERE p.timer IN (SELECT id FROM timer WHERE trial = $1) OR $1 = 0`,
		"timer_callpath":      `SELECT COUNT(*) FROM timer_callpath c WHERE c.timer IN (SELECT id FROM timer WHERE trial = $1) OR $1 = 0`,
		"timer_callpath_name": `SELECT COUNT(*) FROM timer_callpath_name n WHERE n.timer_callpath IN (SELECT c.id FROM timer_callpath c JOIN timer t ON t.id = c.timer WHERE t.trial = $1) OR $1 = 0`,
		"time_range":          `SELECT COUNT(*) FROM time_range r WHERE r.id IN (SELECT time_range FROM secondary_metadata WHERE trial = $1) OR $1 = 0`,
		"timer_call_data":     `SELECT COUNT(*) FROM timer_call_data d WHERE d.thread IN (SELECT id FROM thread WHERE trial = $1) OR $1 = 0`,
		"timer_value":         `SELECT COUNT(*) FROM timer_value v WHERE v.metric IN (SELECT id FROM metric WHERE trial = $1) OR $1 = 0`,
		"counter":             `SELECT COUNT(*) FROM counter WHERE trial = $1 OR $1 = 0`,
		"counter_value":       `SELECT COUNT(*) FROM counter_value v WHERE v.counter IN (SELECT id FROM counter WHERE trial = $1) OR $1 = 0`,
		"primary_metadata":    `SELECT COUNT(*) FROM primary_metadata WHERE trial = $1 OR $1 = 0`,
		"secondary_metadata":  `SELECT COUNT(*) FROM secondary_metadata WHERE trial = $1 OR $1 = 0`,
	}
	out := map[string]int{}
	for table, sql := range q {
		n, err := strconv.Atoi(storetest.Query(t, db, sql, id)[0][0])
		if err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

// TestRowCountsAgainstTAU checks the rows of each table against the counts
// TAU's own loader wrote for the same trials (taudb-mapping.md §7).
//
// timer_call_data and timer_value differ by design: TAU writes a derived
// thread's row only where that thread's calls statistic is > 0 (so for
// Hatchet no STDDEV rows at all, 5 × 23 derived rows), where SaveTrial
// writes all seven derived threads for every node some real thread has a
// record of. Real-thread rows are the same: one per record (TAU's calls > 0
// filter changes nothing for these trials, which have no calls == 0
// record). So the expectation is: real rows = present cells, derived rows
// = 7 × nodes with data, timer_value = timer_call_data × metrics.
func TestRowCountsAgainstTAU(t *testing.T) {
	type oracle struct {
		rel                                                              string
		thread, metric, timer, group, param, callpath, counter, counterV int
		primary, secondary                                               int
		tauCallData                                                      int
	}
	oracles := []oracle{
		{"LLNL-hatchet/tau-cpi-mpi", 11, 1, 12, 12, 0, 23, 2, 8, 91, 28, 207},
		{"UO-OACISS-tau2/examples/wrap", 9, 1, 8, 11, 3, 8, 0, 0, 40, 6, 56},
		{"UO-OACISS-tau2/examples/workflow_consolidation/xmain_0", 15, 1, 27, 27, 0, 27, 29, 195, 66, 34, 357},
		{"stevenpl98-ParallelFinalProject/parallel-omp12", 19, 2, 32, 32, 0, 32, 0, 0, 78, 0, 466},
		{"UO-OACISS-tau2/perfexplorer/StackedBarChart/4.ppk", 11, 1, 10, 10, 0, 10, 3, 12, 23, 12, 94},
	}
	type loaded struct {
		oracle
		trial *drg.Trial
	}
	var trials []loaded
	for _, o := range oracles {
		p, ok := realdata.Find(o.rel)
		if !ok {
			t.Logf("%s: not present, skipped", o.rel)
			continue
		}
		tr, err := reader.Read(p, "")
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, loaded{o, tr})
	}
	if len(trials) == 0 {
		realdata.Missing(t, "none of the trials TAU loaded is in the shared data folder")
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		for _, l := range trials {
			id, err := db.SaveTrial(ctx, l.trial, store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tr := l.trial
			nt := len(tr.Threads)
			present, withData := 0, 0
			for n := range tr.Nodes {
				k := tr.Present.Count(n*nt, (n+1)*nt)
				present += k
				if k > 0 {
					withData++
				}
			}
			callData := present + 7*withData
			want := map[string]int{
				"trial": 1, "thread": l.thread, "metric": l.metric, "timer": l.timer, "timer_group": l.group,
				"timer_parameter": l.param, "timer_callpath": l.callpath, "timer_callpath_name": 0, "time_range": 0,
				"timer_call_data": callData, "timer_value": callData * l.metric,
				"counter": l.counter, "counter_value": l.counterV, "primary_metadata": l.primary, "secondary_metadata": l.secondary,
			}
			got := counts(t, db, id)
			for table, n := range want {
				if got[table] != n {
					t.Errorf("%s: %d rows in %s, want %d", l.rel, got[table], table, n)
				}
			}
			// What TAU wrote is our real rows plus its derived rows, of
			// which it has at most 7 × nodes with data.
			if tauDerived := l.tauCallData - present; tauDerived < 0 || tauDerived > 7*withData {
				t.Errorf("%s: TAU's %d timer_call_data rows are not %d real rows plus at most %d derived ones", l.rel, l.tauCallData, present, 7*withData)
			}
			nodes, ctxs, thr, total := tr.Layout()
			row := storetest.Query(t, db, `SELECT name, data_source, node_count, contexts_per_node, threads_per_context, total_threads FROM trial WHERE id = $1`, id)[0]
			if wantRow := []string{tr.Name, strconv.Itoa(tr.Source.DataSource), strconv.Itoa(nodes), strconv.Itoa(ctxs), strconv.Itoa(thr), strconv.Itoa(total)}; !slices.Equal(row, wantRow) {
				t.Errorf("%s: trial row %v, want %v", l.rel, row, wantRow)
			}
		}
	})
}

// TestTrialRowsOfHatchet checks rows TAU's loader was observed to write for
// Hatchet's trial (taudb-mapping.md §2, §3.3, §7): the trial row, the
// derived thread rows and their order, a callpath's parent, the timer's
// source columns, and a counter's raw Σx² in standard_deviation.
func TestTrialRowsOfHatchet(t *testing.T) {
	p := realdata.Real(t, "LLNL-hatchet/tau-cpi-mpi")
	tr, err := reader.Read(p, "")
	if err != nil {
		t.Fatal(err)
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: "hatchet"})
		if err != nil {
			t.Fatal(err)
		}
		row := storetest.Query(t, db, `SELECT data_source, node_count, contexts_per_node, threads_per_context, total_threads FROM trial WHERE id = $1`, id)[0]
		if want := []string{"1", "4", "1", "1", "4"}; !slices.Equal(row, want) {
			t.Errorf("trial row %v, want %v", row, want)
		}
		var codes []string
		for _, r := range storetest.Query(t, db, `SELECT node_rank, context_rank, thread_rank, thread_index FROM thread WHERE trial = $1 ORDER BY id`, id) {
			if strings.HasPrefix(r[3], "-") && (r[0] != r[1] || r[1] != r[2] || r[2] != r[3]) {
				t.Errorf("derived thread row %v: ranks and index differ", r)
			}
			codes = append(codes, r[3])
		}
		if want := []string{"0", "1", "2", "3", "-1", "-3", "-2", "-5", "-4", "-6", "-7"}; !slices.Equal(codes, want) {
			t.Errorf("thread rows %v, want %v", codes, want)
		}
		// The callpath .TAU application => MPI_Finalize() => MPI_File_open()
		// has the row of .TAU application => MPI_Finalize() as parent.
		rows := storetest.Query(t, db, `
SELECT pt.name, pp.parent IS NULL
FROM timer_callpath c JOIN timer t ON t.id = c.timer
JOIN timer_callpath pc ON pc.id = c.parent JOIN timer pt ON pt.id = pc.timer
JOIN timer_callpath pp ON pp.id = pc.parent
WHERE t.trial = $1 AND t.name = 'MPI_File_open()'`, id)
		if len(rows) != 1 || rows[0][0] != "MPI_Finalize()" {
			t.Errorf("parents of MPI_File_open(): %v", rows)
		}
		// Σx² of the user event, not a standard deviation.
		var want []string
		for c, ctr := range tr.Counters {
			for th := range tr.Threads {
				if v := tr.CounterValues[c*len(tr.Threads)+th]; tr.CounterPresent.Get(c*len(tr.Threads) + th) {
					want = append(want, ctr.Name+" "+strconv.FormatFloat(v.SumSquares, 'g', -1, 64))
				}
			}
		}
		var got []string
		for _, r := range storetest.Query(t, db, `SELECT c.name, v.standard_deviation FROM counter_value v JOIN counter c ON c.id = v.counter WHERE c.trial = $1 ORDER BY c.id, v.thread`, id) {
			f, _ := strconv.ParseFloat(r[1], 64)
			got = append(got, r[0]+" "+strconv.FormatFloat(f, 'g', -1, 64))
		}
		if !slices.Equal(got, want) {
			t.Errorf("counter_value.standard_deviation %v, want Σx² %v", got, want)
		}
		// Real threads' sum_exclusive_squared is NULL, derived ones hold Σx².
		for _, r := range storetest.Query(t, db, `
SELECT th.thread_index < 0, COUNT(*), COUNT(v.sum_exclusive_squared)
FROM timer_value v JOIN timer_call_data d ON d.id = v.timer_call_data JOIN thread th ON th.id = d.thread
WHERE th.trial = $1 GROUP BY th.thread_index < 0`, id) {
			derived := r[0] == "true" || r[0] == "1"
			if (derived && r[1] != r[2]) || (!derived && r[2] != "0") {
				t.Errorf("sum_exclusive_squared: derived=%v rows=%s non-null=%s", derived, r[1], r[2])
			}
		}
	})
}

// TestDeleteTrial deletes one of two trials: every row of it goes, in every
// table, with its analysis settings and results; the other is untouched.
func TestDeleteTrial(t *testing.T) {
	var snap, other *drg.Trial
	for _, rt := range realTrials(t) {
		switch {
		case rt.rel == "snapshots":
			snap = rt.trial
		case strings.HasSuffix(rt.rel, "east02-mm-profile/3"):
			other = rt.trial
		}
	}
	if snap == nil || other == nil {
		t.Skip("trials missing")
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		keep, err := db.SaveTrial(ctx, other, store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		kept := counts(t, db, keep)
		for _, tr := range []*drg.Trial{snap, other} {
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{Name: "doomed"})
			if err != nil {
				t.Fatal(err)
			}
			storetest.Exec(t, db, `INSERT INTO analysis_settings (trial, metric, method, dimension_reduction, normalization)
				VALUES (`+strconv.FormatInt(id, 10)+`, (SELECT MIN(id) FROM metric WHERE trial = `+strconv.FormatInt(id, 10)+`), 'K Means', 'None', 'None')`)
			storetest.Exec(t, db, `INSERT INTO analysis_result (analysis_settings, description, result_type)
				VALUES ((SELECT MAX(id) FROM analysis_settings), 'r', 3)`)
			storetest.Exec(t, db, `INSERT INTO analysis_result_value (analysis_result, table_name, row_index, column_name, value_num)
				VALUES ((SELECT MAX(id) FROM analysis_result), 't', 0, 'c', 1)`)
			if n := counts(t, db, id); n["time_range"] != len(tr.Series) || n["timer_value"] == 0 {
				t.Fatalf("rows before the delete: %v", n)
			}
			if err := db.DeleteTrial(ctx, id); err != nil {
				t.Fatal(err)
			}
			after := counts(t, db, 0)
			for table, n := range kept {
				if after[table] != n {
					t.Errorf("%s: %d rows after the delete, want the kept trial's %d", table, after[table], n)
				}
			}
			for _, table := range []string{"analysis_settings", "analysis_result", "analysis_result_value"} {
				if n := storetest.Query(t, db, `SELECT COUNT(*) FROM `+table)[0][0]; n != "0" {
					t.Errorf("%s: %s rows after the delete", table, n)
				}
			}
		}
		if got, err := db.LoadTrial(ctx, keep); err != nil {
			t.Fatal(err)
		} else if d := compareTrials(roundTrip(other), got); len(d) > 0 {
			t.Errorf("the kept trial changed:\n  %s", strings.Join(d, "\n  "))
		}
	})
}
