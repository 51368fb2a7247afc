package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// overheadDoc is the part of overhead's JSON the tests read.
type overheadDoc struct {
	Tables []struct {
		Name string
		Rows []map[string]any
	}
}

func (d overheadDoc) rows(name string) []map[string]any {
	for _, t := range d.Tables {
		if t.Name == name {
			return t.Rows
		}
	}
	return nil
}

// TestOverheadOfTheRealSeries runs overhead on the 8 matmult trials (np =
// 1..8, a true 1-process baseline): identified + unidentified equals T_o to
// the last bit in every experiment, the baseline's T_o is its MPI time, MPI_Init/MPI_Finalize are control of
// parallelism, and a rules file reclassifying MPI_Finalize moves its time to
// synchronization.
func TestOverheadOfTheRealSeries(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "o.db")
	db := []string{"--db", url}
	for i := 0; i < 8; i++ {
		dir := realdata.Real(t, fmt.Sprintf("ParaToolsInc-taucmdr/jupyter/east02-mm-profile/%d", i))
		ok(t, nil, append(db, "load", "-n", fmt.Sprintf("mm-%d", i+1), "-a", "matmult", dir)...)
	}
	run := func(extra ...string) overheadDoc {
		t.Helper()
		r := ok(t, nil, append(append(db, "--format", "json", "overhead", "--where", `application == "matmult"`), extra...)...)
		var d overheadDoc
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := run()
	totals := d.rows("totals")
	if len(totals) != 8 {
		t.Fatalf("%d experiments", len(totals))
	}
	for _, row := range totals {
		to, id, un := row["t_o"].(float64), row["identified"].(float64), row["unidentified"].(float64)
		if id+un != to {
			t.Errorf("%v: identified %v + unidentified %v != T_o %v", row["experiment"], id, un, to)
		}
		// The 1-rank baseline's T_o is its own MPI time (T_s is its time
		// outside MPI): all of it control of parallelism, nothing unidentified.
		if row["p"].(float64) == 1 && (!(to > 0) || un != 0 || to != row["control_of_parallelism"].(float64)) {
			t.Errorf("baseline: T_o %v, unidentified %v, control %v", to, un, row["control_of_parallelism"])
		}
	}
	ctl := func(d overheadDoc, category string) float64 {
		for _, row := range d.rows("experiments") {
			if row["category"] == category && row["sub"] == "" {
				return row["p8"].(float64)
			}
		}
		t.Fatalf("no row %q", category)
		return 0
	}
	control, sync := ctl(d, "control of parallelism"), ctl(d, "synchronization")
	if control <= 0 || sync != 0 {
		t.Errorf("p=8: control %v, synchronization %v", control, sync)
	}
	rules := filepath.Join(realdata.Root(), "testdata", "rules", "reclassify_finalize.yaml")
	d2 := run("--rules", rules, "--no-save")
	if ctl(d2, "synchronization") <= 0 || ctl(d2, "control of parallelism") >= control {
		t.Errorf("with the rules file: synchronization %v, control %v (before %v)", ctl(d2, "synchronization"), ctl(d2, "control of parallelism"), control)
	}
	fails(t, 1, "err_unknown_key.yaml:", append(db, "overhead", "--where", "true", "--rules", filepath.Join(realdata.Root(), "testdata", "rules", "err_unknown_key.yaml"))...)
}
