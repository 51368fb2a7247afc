package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
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
	if doc.Params["method"] != "K Means" || doc.Params["normalization"] != "Z-Score" || doc.Params["dimension_reduction"] != "Over X Percent" {
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

// TestClusterStoredAsPerfExplorerWritesIt: a hierarchical clustering is
// stored with PerfExplorer's method, dimension_reduction and normalization
// strings in analysis_settings and its six pictures as PNG rows of
// analysis_result (result_type 0, 1, 3, 4, 5, 6, sizes = byte lengths), on
// both databases.
func TestClusterStoredAsPerfExplorerWritesIt(t *testing.T) {
	mm := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/HeatMapSamples/matmult.ppk")
	databases(t, func(t *testing.T, url string) {
		db := []string{"--db", url}
		ok(t, nil, append(db, "db", "init")...)
		ok(t, nil, append(db, "load", "-n", "mm", mm)...)
		ok(t, nil, append(db, "cluster", "--trial", "mm", "--method", "hierarchical", "-k", "3", "--normalize", "range", "--reduce", "over", "--x", "2")...)
		s, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		// The result's row and the row PerfExplorer's viewer selects, which
		// holds the pictures (store.SaveResult).
		set := storetest.Query(t, s, `SELECT method, dimension_reduction, normalization FROM analysis_settings ORDER BY id`)
		if len(set) != 2 {
			t.Errorf("analysis_settings %v, want 2 rows", set)
		}
		for _, row := range set {
			if row[0] != "Hierarchical" || row[1] != "Over X Percent" || row[2] != "Range of Total" {
				t.Errorf("analysis_settings %v", set)
			}
		}
		rows := storetest.Query(t, s, `SELECT result_type, image_size, thumbnail_size FROM analysis_result WHERE image IS NOT NULL ORDER BY result_type`)
		want := []string{"0", "1", "3", "4", "5", "6"}
		if len(rows) != len(want) {
			t.Fatalf("image rows %v", rows)
		}
		for i, r := range rows {
			if r[0] != want[i] {
				t.Errorf("row %d: result_type %s, want %s", i, r[0], want[i])
			}
		}
		sid := storetest.Query(t, s, `SELECT MIN(id) FROM analysis_settings`)[0][0]
		var id int64
		json.Unmarshal([]byte(sid), &id)
		imgs, err := s.ResultImages(context.Background(), id)
		if err != nil || len(imgs) != 6 {
			t.Fatalf("images %d %v", len(imgs), err)
		}
		for _, im := range imgs {
			if _, err := png.Decode(bytes.NewReader(im.PNG)); err != nil {
				t.Errorf("%s: %v", im.Description, err)
			}
		}
	})
}
