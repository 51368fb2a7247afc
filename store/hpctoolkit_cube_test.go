package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/drg/reader"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestRoundTripOtherFormats saves the HPCToolkit databases (cpi, allgather
// with 10 ranks × 2 threads, the 2022+ cpi) and the Score-P cpi .cubex of Hatchet's test
// data into SQLite and PostgreSQL and loads each back: the trial equals
// the one read, value by value, with its data_source (9 HPCToolkit,
// 8 Cube) and its HPCToolkit/CUBE metadata.
func TestRoundTripHPCToolkitAndCube(t *testing.T) {
	base := filepath.Join(realdata.Root(), "..", "shared", "data", "other-formats", "hatchet-hatchet")
	var trials []*drg.Trial
	for _, rel := range []string{"hpctoolkit-cpi-database", "hpctoolkit-allgather-database", "hatchet_cpi_v4_database", "scorep-cpi-cubex/profile.cubex"} {
		p := filepath.Join(base, rel)
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s: shared data absent", p)
		}
		tr, err := reader.Read(p, "")
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, tr)
	}
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		for _, tr := range trials {
			id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
			if err != nil {
				t.Fatalf("%s: %v", tr.Source.Path, err)
			}
			got, err := db.LoadTrial(ctx, id)
			if err != nil {
				t.Fatalf("%s: %v", tr.Source.Path, err)
			}
			if d := compareTrials(roundTrip(tr), got); len(d) > 0 {
				t.Errorf("%s came back different:\n  %s", tr.Source.Path, strings.Join(d, "\n  "))
			}
		}
		infos, err := db.Trials(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"hpctoolkit-cpi-database": 9, "hpctoolkit-allgather-database": 9, "hatchet_cpi_v4_database": 9, "profile": 8}
		for _, ti := range infos {
			if ds, ok := want[ti.Name]; !ok || ti.DataSource != ds {
				t.Errorf("trial %q: data_source %d (%s), want %d", ti.Name, ti.DataSource, ti.DataSourceName, ds)
			}
		}
	})
}
