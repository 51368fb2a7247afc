package main

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// BenchmarkRegressPostgres times the whole regress command (select, read
// the trials from PostgreSQL, detect, print) over a history of 100 trials
// of 1,000 regions with one shift, as the issue asks ("takes seconds"):
// "full" reads every trial (--full-history), "one-new" builds on a stored
// result of the first 99 trials and reads the newest only, as a nightly
// job does. The trials are saved once, outside the timing (about 3
// minutes on a busy 2-core machine). Measured figures: docs/performance.md.
func BenchmarkRegressPostgres(b *testing.B) {
	schema := storetest.NewPostgresSchema(b)
	url := storetest.PostgresURL() + "&search_path=" + schema
	h, err := synth.GenerateHistory(synth.HistorySpec{Points: 100, MinReps: 1, MaxReps: 1, Regions: 1000, Noise: 0.02, Seed: 1,
		Shifts: []synth.Shift{{At: 60, Regions: []int{999}, Size: 0.1}}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Init(ctx); err != nil {
		b.Fatal(err)
	}
	for _, tr := range h.Trials {
		if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{Application: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	infos, err := db.Trials(ctx)
	db.Close()
	if err != nil || len(infos) != 100 {
		b.Fatalf("%d trials stored: %v", len(infos), err)
	}
	args := []string{"--db", url, "-q", "--format", "json", "regress", "--order-by", "meta:Commit Date"}
	prefix := append(append([]string(nil), args...), "--where", fmt.Sprintf("id <= %d", infos[98].ID))
	if code := runWith(prefix, io.Discard, io.Discard); code != 0 {
		b.Fatalf("regress over 99 trials exited %d", code)
	}
	for _, c := range []struct{ name, flag string }{{"full", "--full-history"}, {"one-new", "--no-save"}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if code := runWith(append(append([]string(nil), args...), "--no-save", c.flag), io.Discard, io.Discard); code != 0 {
					b.Fatalf("regress exited %d", code)
				}
			}
		})
	}
}
