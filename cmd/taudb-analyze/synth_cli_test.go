package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// TestSynthPPKLoad generates a small series of packed profiles with synth
// --file-format ppk, loads it into the embedded database and checks every value,
// call count, user event and metadata key the database holds against
// synth.Generate of the same spec.
func TestSynthPPKLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "series")
	r := ok(t, nil, "synth", "--out", dir, "--file-format", "ppk", "--processes", "1,3", "--threads-per-process", "2",
		"--regions", "6", "--depth", "2", "--metrics", "2", "--serial", "2000", "--parallel", "30000", "--log", "700",
		"--noise", "0.05", "--imbalance", "0.3", "--seed", "11")
	paths := strings.Fields(r.stdout)
	want := []string{filepath.Join(dir, "p1.ppk"), filepath.Join(dir, "p3.ppk")}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("synth printed %q, want %q", paths, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%s holds %v, want the two .ppk files only", dir, entries)
	}

	url := "sqlite:" + filepath.Join(t.TempDir(), "synth.db")
	for i, p := range []int{1, 3} {
		// Detected as ppk by its content: no -f.
		r := ok(t, nil, "--db", url, "--format", "json", "load", "-n", fmt.Sprintf("ppk-p%d", p), paths[i])
		var l []loaded
		if err := json.Unmarshal([]byte(r.stdout), &l); err != nil || len(l) != 1 {
			t.Fatalf("load printed %q: %v", r.stdout, err)
		}
		if l[0].Format != "ppk" || l[0].Threads != 2*p || l[0].Metrics != 2 {
			t.Errorf("loaded %+v", l[0])
		}

		spec := synth.Spec{Processes: p, ThreadsPerProcess: 2, Regions: 6, Depth: 2, Metrics: 2,
			Serial: 2000, Parallel: 30000, Log: 700, Noise: 0.05, Imbalance: 0.3, Seed: 11}
		exp, err := synth.Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		db, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.LoadTrial(context.Background(), l[0].ID)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		compareLoaded(t, p, exp, got)
	}
}

// compareLoaded checks a trial read back from the database against the
// generated one, by names (node, thread, metric, counter), so that it does
// not depend on the order the database returns them in.
func compareLoaded(t *testing.T, p int, exp, got *drg.Trial) {
	t.Helper()
	if len(got.Threads) != len(exp.Threads) || len(got.Nodes) != len(exp.Nodes) || len(got.Metrics) != len(exp.Metrics) ||
		len(got.Counters) != len(exp.Counters) {
		t.Fatalf("p=%d: %d threads, %d nodes, %d metrics, %d counters; want %d, %d, %d, %d", p,
			len(got.Threads), len(got.Nodes), len(got.Metrics), len(got.Counters),
			len(exp.Threads), len(exp.Nodes), len(exp.Metrics), len(exp.Counters))
	}
	if got.Metadata["Application"] != "synth" {
		t.Errorf("p=%d: trial metadata %q", p, got.Metadata)
	}
	cells := 0
	for th, et := range exp.Threads {
		gth := got.ThreadIndex(et.Node, et.Context, et.Thread)
		if gth < 0 {
			t.Fatalf("p=%d: no thread %d.%d.%d", p, et.Node, et.Context, et.Thread)
		}
		if pid := got.Threads[gth].Metadata["pid"]; pid != et.Metadata["pid"] {
			t.Errorf("p=%d thread %d: pid %q, want %q", p, th, pid, et.Metadata["pid"])
		}
		for n, en := range exp.Nodes {
			gn := got.NodeIndex(en.Name)
			if gn < 0 {
				t.Fatalf("p=%d: no node %q", p, en.Name)
			}
			ek, gk := exp.Cell(n, th), got.Cell(gn, gth)
			if exp.Present.Get(ek) != got.Present.Get(gk) || exp.Calls[ek] != got.Calls[gk] || exp.Subroutines[ek] != got.Subroutines[gk] {
				t.Errorf("p=%d %q thread %d: present %v calls %v subrs %v, want %v %v %v", p, en.Name, th,
					got.Present.Get(gk), got.Calls[gk], got.Subroutines[gk], exp.Present.Get(ek), exp.Calls[ek], exp.Subroutines[ek])
			}
			for m, em := range exp.Metrics {
				gm := got.MetricIndex(em.Name)
				if gm < 0 {
					t.Fatalf("p=%d: no metric %q", p, em.Name)
				}
				e, g := exp.Values[m], got.Values[gm]
				if g.Exclusive[gk] != e.Exclusive[ek] || g.Inclusive[gk] != e.Inclusive[ek] {
					t.Errorf("p=%d %q thread %d %s: %v/%v, want %v/%v", p, en.Name, th, em.Name,
						g.Exclusive[gk], g.Inclusive[gk], e.Exclusive[ek], e.Inclusive[ek])
				}
				if e.Exclusive[ek] != 0 {
					cells++
				}
			}
		}
		for c, ec := range exp.Counters {
			gc := -1
			for i, x := range got.Counters {
				if x.Name == ec.Name {
					gc = i
				}
			}
			if gc < 0 {
				t.Fatalf("p=%d: no user event %q", p, ec.Name)
			}
			e, g := exp.CounterValues[c*len(exp.Threads)+th], got.CounterValues[gc*len(got.Threads)+gth]
			if e != g {
				t.Errorf("p=%d %q thread %d: %+v, want %+v", p, ec.Name, th, g, e)
			}
		}
	}
	// The comparison saw real data: every region, callpath and main has
	// non-zero values on every thread, for both metrics.
	if want := len(exp.Nodes) * len(exp.Threads) * len(exp.Metrics); cells != want {
		t.Errorf("p=%d: %d non-zero cells, want %d", p, cells, want)
	}
}

// TestSynthBadFormat checks that an unknown --file-format is a usage error that
// names the flag, and that nothing is written.
func TestSynthBadFormat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	fails(t, 2, `--file-format "xml": want profile or ppk`, "synth", "--out", dir, "-f", "xml", "--processes", "1")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a bad --file-format created %s: %v", dir, err)
	}
}
