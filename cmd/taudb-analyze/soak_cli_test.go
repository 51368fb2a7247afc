package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/metrics"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// Soak test parameters: 16 clients, 12 of them calling the store in this
// process (each with its own database handle, as a process has) and 4
// running the binary, for soakDuration.
const (
	soakClients    = 16
	soakCLIClients = 4
	soakNames      = 8 // trial names soak-0 .. soak-7
	soakFolders    = 4 // trial folders of 1, 2, 4 and 8 threads
)

// soakDuration is how long the soak runs on each database: TAUDB_SOAK
// seconds, or 5 s.
func soakDuration(t *testing.T) time.Duration {
	s := os.Getenv("TAUDB_SOAK")
	if s == "" {
		return 5 * time.Second
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("TAUDB_SOAK=%q: want a number of seconds", s)
	}
	return time.Duration(n) * time.Second
}

// soakOps counts, per operation, what succeeded and what was refused with
// one of the errors a concurrent client must expect (name taken, trial
// deleted meanwhile).
type soakOps struct {
	mu     sync.Mutex
	counts map[string]*[2]int64
	bad    []string
}

func (s *soakOps) note(op string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.counts[op]
	if c == nil {
		c = new([2]int64)
		s.counts[op] = c
	}
	switch {
	case err == nil:
		c[0]++
	case soakExpected(err):
		c[1]++
	default:
		s.bad = append(s.bad, op+": "+err.Error())
	}
}

// soakExpected tells the errors a client of a shared database must expect:
// the name was taken by another, or the trial was deleted by another.
func soakExpected(err error) bool {
	var taken *store.NameTakenError
	return errors.As(err, &taken) || errors.Is(err, store.ErrNoTrial)
}

// soakTrialFolders writes trial folders of 1, 2, 4 and 8 threads (each
// thread goodProfile with its times scaled by its rank + 1) and reads each
// back with the reader, the oracle of what a stored trial must hold.
func soakTrialFolders(t *testing.T) ([]string, []*drg.Trial) {
	root := t.TempDir()
	dirs := make([]string, soakFolders)
	want := make([]*drg.Trial, soakFolders)
	for f := range soakFolders {
		dirs[f] = filepath.Join(root, fmt.Sprintf("f%d", f))
		if err := os.MkdirAll(dirs[f], 0o755); err != nil {
			t.Fatal(err)
		}
		for th := range 1 << f {
			k := th + 1
			p := strings.NewReplacer(" 1 1 10 30 ", fmt.Sprintf(" 1 1 %d %d ", 10*k, 30*k), " 2 0 20 20 ", fmt.Sprintf(" 2 0 %d %d ", 20*k, 20*k)).Replace(goodProfile)
			if err := os.WriteFile(filepath.Join(dirs[f], fmt.Sprintf("profile.%d.0.0", th)), []byte(p), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var err error
		if want[f], err = reader.Read(dirs[f], ""); err != nil {
			t.Fatal(err)
		}
	}
	return dirs, want
}

// TestSoakConcurrentClients runs 16 clients for TAUDB_SOAK seconds (5 s by
// default) on one database, SQLite file and PostgreSQL schema: loads of 8
// names with --reuse or refusing the name, ratio --save-metric T9, deletes
// and imbalance analyses whose results are stored, 12 clients through the
// store API in this process and 4 running the binary. Every operation
// either succeeds or fails with a name-taken or trial-gone error (the CLI:
// exit 1 saying so); afterwards the database is consistent (db check),
// holds no two trials of one name nor two metrics of one name in a trial,
// every trial reads back equal to its folder (T9 = TIME / 2 where saved),
// and every stored result (imbalance, and the ratio that `ratio` stores)
// equals the analysis of its trial in memory.
func TestSoakConcurrentClients(t *testing.T) {
	dirs, want := soakTrialFolders(t)
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "db", "init")
		ops := &soakOps{counts: map[string]*[2]int64{}}
		deadline := time.Now().Add(soakDuration(t))
		var wg sync.WaitGroup
		var cliRuns atomic.Int64
		for c := range soakClients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(c), 23))
				if c < soakCLIClients {
					soakCLIClient(t, url, dirs, rng, deadline, ops, &cliRuns)
					return
				}
				soakStoreClient(t, url, want, rng, deadline, ops)
			}()
		}
		wg.Wait()
		ops.mu.Lock()
		var names []string
		for op := range ops.counts {
			names = append(names, op)
		}
		slices.Sort(names)
		for _, op := range names {
			t.Logf("%-16s %6d succeeded, %5d refused as expected", op, ops.counts[op][0], ops.counts[op][1])
		}
		for _, b := range ops.bad {
			t.Errorf("unexpected failure: %s", b)
		}
		ops.mu.Unlock()
		soakCheck(t, url, want)
	})
}

// soakStoreClient runs random operations through the store API until the
// deadline.
func soakStoreClient(t *testing.T, url string, want []*drg.Trial, rng *rand.Rand, deadline time.Time, ops *soakOps) {
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		ops.note("open", err)
		return
	}
	defer db.Close()
	for time.Now().Before(deadline) {
		k := rng.IntN(soakNames)
		name := fmt.Sprintf("soak-%d", k)
		switch op := rng.IntN(10); {
		case op < 3:
			rule := store.NameReuse
			if op == 0 {
				rule = store.NameRefuse
			}
			// Two trials in one transaction: this name and the next.
			k2 := (k + 1) % soakNames
			_, err := db.SaveTrials(ctx, []store.PendingTrial{
				{Trial: want[k%soakFolders], Options: store.SaveOptions{Name: name, IfExists: rule}},
				{Trial: want[k2%soakFolders], Options: store.SaveOptions{Name: fmt.Sprintf("soak-%d", k2), IfExists: rule}},
			})
			ops.note("load", err)
		case op < 5:
			ops.note("save-metric", soakSaveMetric(ctx, db, name))
		case op < 6:
			id, err := db.FindTrial(ctx, name)
			if err == nil {
				err = db.DeleteTrial(ctx, id)
			}
			ops.note("delete", err)
		default:
			ops.note("imbalance", soakAnalyse(ctx, db, name))
		}
	}
}

// soakSaveMetric saves T9 = TIME / 2 into trial name, unless it has T9.
func soakSaveMetric(ctx context.Context, db *store.DB, name string) error {
	id, err := db.FindTrial(ctx, name)
	if err != nil {
		return err
	}
	tr, err := db.LoadTrial(ctx, id)
	if err != nil || tr.MetricIndex("T9") >= 0 {
		return err
	}
	e, err := metrics.Compile("TIME / 2", metrics.Names(tr))
	if err != nil {
		return err
	}
	m, err := metrics.AddDerived(tr, "T9", e)
	if err != nil {
		return err
	}
	_, err = db.SaveMetric(ctx, id, tr, m)
	return err
}

// soakAnalyse runs an imbalance analysis of trial name and stores it.
func soakAnalyse(ctx context.Context, db *store.DB, name string) error {
	id, err := db.FindTrial(ctx, name)
	if err != nil {
		return err
	}
	tr, err := db.LoadTrial(ctx, id)
	if err != nil {
		return err
	}
	res, err := analysis.Imbalance(tr, analysis.ImbalanceOptions{})
	if err != nil {
		return err
	}
	_, err = db.SaveResult(ctx, res, []int64{id})
	return err
}

// soakCLIClient runs random commands of the binary until the deadline. A
// failure must be exit 1 with a message that the name is taken or the
// trial is gone.
func soakCLIClient(t *testing.T, url string, dirs []string, rng *rand.Rand, deadline time.Time, ops *soakOps, runs *atomic.Int64) {
	for time.Now().Before(deadline) {
		k := rng.IntN(soakNames)
		name := fmt.Sprintf("soak-%d", k)
		var op string
		var args []string
		switch r := rng.IntN(4); r {
		case 0:
			op, args = "cli load", []string{"load", "--reuse", "-n", name, dirs[k%soakFolders]}
		case 1:
			op, args = "cli save-metric", []string{"ratio", "--trial", name, "--name", "T9", "--expr", "TIME / 2", "--save-metric"}
		case 2:
			op, args = "cli delete", []string{"delete", "--trial", name}
		default:
			op, args = "cli imbalance", []string{"imbalance", "--trial", name}
		}
		r := cli(t, nil, append([]string{"--db", url, "--quiet"}, args...)...)
		runs.Add(1)
		var err error
		switch {
		case r.code == 0:
		case r.code == 1 && (strings.Contains(r.stderr, "no such trial") || strings.Contains(r.stderr, `already has a metric named "T9"`)):
			err = store.ErrNoTrial // an expected refusal
		default:
			err = fmt.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		ops.note(op, err)
	}
}

// soakCheck verifies the database after the soak.
func soakCheck(t *testing.T, url string, want []*drg.Trial) {
	ctx := context.Background()
	db := openURL(t, url)
	storetest.CheckIntegrity(t, db)
	if dup := storetest.Query(t, db, `SELECT name, count(*) FROM trial GROUP BY name HAVING count(*) > 1`); len(dup) > 0 {
		t.Errorf("trials sharing a name: %v", dup)
	}
	if dup := storetest.Query(t, db, `SELECT trial, name, count(*) FROM metric GROUP BY trial, name HAVING count(*) > 1`); len(dup) > 0 {
		t.Errorf("metrics sharing a name in a trial: %v", dup)
	}
	trials, err := db.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	results, err := db.Results(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after the soak: %d trials, %d results", len(trials), len(results))
	loaded := map[string]*drg.Trial{}
	for _, ti := range trials {
		k, err := strconv.Atoi(strings.TrimPrefix(ti.Name, "soak-"))
		if err != nil {
			t.Fatalf("unexpected trial %q", ti.Name)
		}
		back, err := db.LoadTrial(ctx, ti.ID)
		if err != nil {
			t.Fatal(err)
		}
		soakSameTrial(t, ti.Name, want[k%soakFolders], back)
		loaded[ti.Name] = back
	}
	for _, ri := range results {
		res, err := db.LoadResult(ctx, ri.ID)
		if err != nil {
			t.Fatal(err)
		}
		tr := loaded[ri.Trials[0]]
		if tr == nil {
			t.Errorf("result %d of trial %v, which is not stored", ri.ID, ri.Trials)
			continue
		}
		var exp *analysis.Result
		switch res.Analysis {
		case "imbalance":
			exp, err = analysis.Imbalance(tr, analysis.ImbalanceOptions{})
		case "ratio": // what `ratio --save-metric` stores with the metric
			exp, err = analysis.Ratio(tr, analysis.RatioOptions{Name: "T9", Expr: "TIME / 2"})
		default:
			err = fmt.Errorf("result %d: unexpected analysis %q", ri.ID, res.Analysis)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tables) != len(exp.Tables) {
			t.Errorf("result %d (%s of %v, params %v) has tables %v, the analysis of the stored trial (%d threads, metrics %v) %v", ri.ID, res.Analysis, ri.Trials, res.Params, tableNames(res), len(tr.Threads), tr.Metrics, tableNames(exp))
			continue
		}
		for i := range exp.Tables {
			g, _ := json.Marshal(&res.Tables[i])
			w, _ := json.Marshal(&exp.Tables[i])
			if string(g) != string(w) {
				t.Errorf("result %d, table %s differs from the analysis in memory:\n%.300s\nwant\n%.300s", ri.ID, exp.Tables[i].Name, g, w)
			}
		}
	}
}

// soakSameTrial compares a stored trial with its folder's: threads, nodes,
// every TIME value and call count, and T9 = TIME / 2 when present.
func soakSameTrial(t *testing.T, name string, want, got *drg.Trial) {
	t.Helper()
	if len(got.Threads) != len(want.Threads) || len(got.Nodes) != len(want.Nodes) {
		t.Errorf("%s: %d threads and %d nodes, want %d and %d", name, len(got.Threads), len(got.Nodes), len(want.Threads), len(want.Nodes))
		return
	}
	tm, t9 := got.MetricIndex("TIME"), got.MetricIndex("T9")
	if tm < 0 || len(got.Metrics) != 1+btoi(t9 >= 0) {
		t.Errorf("%s: metrics %v", name, got.Metrics)
		return
	}
	for n, node := range want.Nodes {
		gn := got.NodeIndex(node.Name)
		for th := range want.Threads {
			wc, gc := n*len(want.Threads)+th, gn*len(got.Threads)+th
			if got.Values[tm].Exclusive[gc] != want.Values[0].Exclusive[wc] || got.Calls[gc] != want.Calls[wc] {
				t.Errorf("%s: %s thread %d differs", name, node.Name, th)
			}
			if t9 >= 0 && got.Values[t9].Exclusive[gc] != want.Values[0].Exclusive[wc]/2 {
				t.Errorf("%s: T9 of %s thread %d is %g, want %g", name, node.Name, th, got.Values[t9].Exclusive[gc], want.Values[0].Exclusive[wc]/2)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func tableNames(r *analysis.Result) []string {
	var out []string
	for _, tb := range r.Tables {
		out = append(out, tb.Name)
	}
	return out
}
