package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/caliper"
	"github.com/taudb-analyze/taudb-analyze/drg/gprof"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestOtherFormatsRoundTrip saves every Caliper and gprof2dot file of the
// shared data (Caliper JSON of 8 and 4 MPI ranks, two native .cali files,
// callgrind and gprof DOT graphs) into SQLite and
// PostgreSQL and loads them back: every value, presence bit, call count,
// region, node and metadata entry must come back as it was, and the trial
// row must carry the format's data_source (999 "Other" for Caliper, which
// TAUdb's table lacks; 5 "gprof").
func TestOtherFormatsRoundTrip(t *testing.T) {
	base := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet")
	if _, err := os.Stat(base); err != nil {
		t.Skip("shared other-formats data absent")
	}
	var trials []*drg.Trial
	for _, rel := range []string{"caliper-lulesh-json/lulesh-annotation-profile.json", "caliper-cpi-json/cpi-callpath-profile.json",
		"caliper-example-cali/example-profile.cali", "caliper-lulesh-cali/lulesh-annotation-profile.cali"} {
		tr, err := caliper.Reader{Path: filepath.Join(base, rel)}.Read()
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, tr)
	}
	for _, rel := range []string{"gprof2dot-cpi/callgrind.dot.64042.0.1", "gprof2dot-test/gprof-profile.dot"} {
		g, err := gprof.Reader{Path: filepath.Join(base, rel)}.Read()
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, g)
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		for _, tr := range trials {
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := roundTrip(tr)
			if tr.Source.DataSource == caliper.DataSource {
				// data_source 999 ("Other") does not say which format.
				want.Source.Format = ""
			}
			if d := compareTrials(want, got); len(d) > 0 {
				t.Errorf("%s: %q", tr.Name, d)
			}
			rows := storetest.Query(t, db, `SELECT t.data_source, d.name FROM trial t JOIN data_source d ON d.id = t.data_source WHERE t.id = $1`, id)
			if len(rows) != 1 || rows[0][0] != map[bool]string{true: "999", false: "5"}[tr.Source.DataSource == 999] {
				t.Errorf("%s: data_source %v", tr.Name, rows)
			}
		}
	})
}
