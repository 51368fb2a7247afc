package main

import (
	"encoding/json"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
)

// TestClusterAcrossTrials clusters the threads of two trials of the mm
// series together: every thread appears in the membership table with its
// trial's name, and the result is stored with PerfExplorer's method string.
func TestClusterAcrossTrials(t *testing.T) {
	mm3 := realdata.Real(t, "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/3")
	mm7 := realdata.Real(t, "ParaToolsInc-taucmdr/jupyter/east02-mm-profile/7")
	url := "sqlite:" + t.TempDir() + "/c.db"
	db := []string{"--db", url}
	ok(t, nil, append(db, "load", "-n", "mm-4", mm3)...)
	ok(t, nil, append(db, "load", "-n", "mm-8", mm7)...)
	r := ok(t, nil, append(db, "--format", "json", "cluster", "--trials", "mm-4,mm-8", "-k", "2", "--seed", "7")...)
	var doc struct {
		Params map[string]string
		Tables []struct {
			Name string
			Rows []map[string]any
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Params["method"] != "K Means" || doc.Params["normalization"] != "None" {
		t.Errorf("params %v", doc.Params)
	}
	per := map[string]int{}
	for _, tb := range doc.Tables {
		if tb.Name == "membership" {
			for _, row := range tb.Rows {
				per[row["trial"].(string)]++
			}
		}
	}
	if per["mm-4"] != 4 || per["mm-8"] != 8 {
		t.Errorf("membership per trial %v, want 4 threads of mm-4 and 8 of mm-8", per)
	}
	fails(t, 2, "give --trial or a selection", append(db, "cluster", "--trial", "mm-4", "--trials", "mm-8")...)
	fails(t, 1, "", append(db, "cluster", "--trial", "mm-4", "--method", "bogus")...)
}
