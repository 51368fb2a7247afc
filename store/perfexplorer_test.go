package store_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/analysis"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// PerfExplorer's cluster viewer on a TAUdb, written from
// PerfExplorerServer.getPerformanceResults in TAU's
// tools/src/perfexplorer/src/server/PerfExplorerServer.java (schema
// version above 0): the settings row when a metric is picked in its tree,
// the one when a trial is, and the rows it then reads, each through
// getBinaryStream(4).read and getBinaryStream(6).read (a NULL thumbnail or
// image is a NullPointerException). The methods are
// AnalysisType.getClusterMethods.
const (
	peSettingsOfMetric = `select id from analysis_settings where trial = $1 and metric = $2 and method in ($3,$4,$5) order by id desc`
	peSettingsOfTrial  = `select id from analysis_settings where trial = $1 and metric is null and method in ($2,$3,$4) order by id desc`
	peResults          = `select id, description, thumbnail_size, thumbnail, image_size, image, result_type from analysis_result where analysis_settings = $1 order by id asc`
)

var peMethods = []any{"K Means", "Hierarchical", "Density Based (DBSCAN)"}

// TestPerfExplorerReadsClusterResult: a clustering result of one trial,
// saved with its pictures, is what PerfExplorer's own query selects for
// that trial and metric (a row with application and experiment NULL and
// the result's strings, as PerfExplorer itself writes on a TAUdb), every
// analysis_result row that query reads has the thumbnail and image saved
// (non-NULL, sizes = byte lengths, result_type as saved); taudb-analyze
// still lists one result with its one table of numbers and its pictures,
// and deleting the result or the trial leaves no row of it.
func TestPerfExplorerReadsClusterResult(t *testing.T) {
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		trial, err := db.SaveTrial(ctx, genTrial(t, "a", 4, 3), store.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tb := analysis.Table{Name: "sizes"}
		tb.AddNum("size", "", []float64{3, 1})
		cl := &analysis.Result{Analysis: "cluster", Trial: "a", Metric: "TIME", Tables: []analysis.Table{tb},
			Findings: []string{"two clusters"},
			Params:   map[string]string{"method": "Hierarchical", "dimension_reduction": "Over X Percent", "normalization": "Range of Total"}}
		id, err := db.SaveResult(ctx, cl, []int64{trial})
		if err != nil {
			t.Fatal(err)
		}
		pics := []store.ResultImage{{ResultType: 0, Description: "dendrogram", PNG: []byte("png-0"), Thumbnail: []byte("jpg-0")},
			{ResultType: 1, Description: "histogram", PNG: []byte("png-1 longer"), Thumbnail: []byte("j1")}}
		if err := db.SaveImages(ctx, id, pics); err != nil {
			t.Fatal(err)
		}
		// A result of another analysis of the same trial, saved later:
		// not one PerfExplorer's cluster viewer may pick.
		if _, err := db.SaveResult(ctx, &analysis.Result{Analysis: "stats", Trial: "a", Metric: "TIME", Tables: []analysis.Table{tb}}, []int64{trial}); err != nil {
			t.Fatal(err)
		}
		checkPerfExplorerView(t, db, trial, id, cl, pics)

		infos, err := db.Results(ctx)
		if err != nil || len(infos) != 2 || infos[1].ID != id || infos[1].Analysis != "cluster" || infos[1].Tables != 1 {
			t.Fatalf("Results: %+v, %v; want the stats result and cluster result %d with 1 table", infos, err, id)
		}
		if imgs, err := db.ResultImages(ctx, id); err != nil || len(imgs) != 2 || string(imgs[1].PNG) != "png-1 longer" {
			t.Errorf("ResultImages: %d, %v", len(imgs), err)
		}
		if r, err := db.LoadResult(ctx, id); err != nil || len(r.Tables) != 1 || r.Tables[0].Col("size").Num[0] != 3 || len(r.Findings) != 1 {
			t.Errorf("LoadResult: %+v, %v", r, err)
		}
		viewer, _ := strconv.ParseInt(storetest.Query(t, db, `SELECT MAX(id) FROM analysis_settings WHERE method = 'Hierarchical'`)[0][0], 10, 64)
		if r, err := db.LoadResult(ctx, viewer); viewer == id || err != nil || r.Analysis != "cluster" || len(r.Tables) != 1 {
			t.Errorf("LoadResult of the viewer row %d (result %d): %+v, %v; want the cluster result", viewer, id, r, err)
		}
		if in, err := db.CheckIntegrity(ctx); err != nil || !in.OK() {
			t.Errorf("CheckIntegrity: %+v, %v", in, err)
		}

		if err := db.DeleteResult(ctx, id); err != nil {
			t.Fatal(err)
		}
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM analysis_settings WHERE method = 'Hierarchical'`)[0][0]; n != "0" {
			t.Errorf("DeleteResult left %s settings rows", n)
		}
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM analysis_result WHERE image IS NOT NULL`)[0][0]; n != "0" {
			t.Errorf("DeleteResult left %s pictures", n)
		}

		id, err = db.SaveResult(ctx, cl, []int64{trial})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SaveImages(ctx, id, pics); err != nil {
			t.Fatal(err)
		}
		if err := db.DeleteTrial(ctx, trial); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"analysis_settings", "analysis_settings_parameter", "analysis_settings_trial", "analysis_result", "analysis_result_column", "analysis_result_value"} {
			if n := storetest.Query(t, db, `SELECT COUNT(*) FROM `+table)[0][0]; n != "0" {
				t.Errorf("after DeleteTrial %s has %s rows", table, n)
			}
		}
	})
}

// checkPerfExplorerView runs PerfExplorer's queries for trial and its
// metric TIME and checks they find result id's pictures and nothing else.
func checkPerfExplorerView(t *testing.T, db *store.DB, trial, id int64, cl *analysis.Result, pics []store.ResultImage) {
	t.Helper()
	metric := storetest.Query(t, db, `SELECT id FROM metric WHERE trial = $1 AND name = 'TIME'`, trial)[0][0]
	m, _ := strconv.ParseInt(metric, 10, 64)
	if rows := storetest.Query(t, db, peSettingsOfTrial, append([]any{trial}, peMethods...)...); len(rows) != 0 {
		t.Errorf("PerfExplorer's query for the trial alone finds %v", rows)
	}
	rows := storetest.Query(t, db, peSettingsOfMetric, append([]any{trial, m}, peMethods...)...)
	if len(rows) == 0 {
		t.Fatal("PerfExplorer's query selects no settings row")
	}
	sel := rows[0][0]
	set := storetest.Query(t, db, `SELECT application, experiment, method, dimension_reduction, normalization,
(SELECT value FROM analysis_settings_parameter WHERE analysis_settings = s.id AND name = '_images_of') FROM analysis_settings s WHERE id = $1`, sel)[0]
	want := []string{"NULL", "NULL", cl.Params["method"], cl.Params["dimension_reduction"], cl.Params["normalization"], strconv.FormatInt(id, 10)}
	for i := range want {
		if set[i] != want[i] {
			t.Errorf("selected settings %s: column %d is %q, want %q (row %v)", sel, i, set[i], want[i], set)
		}
	}
	got := storetest.Query(t, db, peResults, sel)
	if len(got) != len(pics) {
		t.Fatalf("PerfExplorer reads %d analysis_result rows, want the %d pictures: %v", len(got), len(pics), got)
	}
	for i, r := range got {
		p := pics[i]
		if r[3] == "NULL" || r[5] == "NULL" {
			t.Errorf("row %v: NULL thumbnail or image (PerfExplorer's read throws)", r)
		}
		if r[1] != p.Description || r[2] != strconv.Itoa(len(p.Thumbnail)) || r[3] != string(p.Thumbnail) ||
			r[4] != strconv.Itoa(len(p.PNG)) || r[5] != string(p.PNG) || r[6] != strconv.Itoa(p.ResultType) {
			t.Errorf("row %d: %v, want %+v", i, r, p)
		}
	}
}
