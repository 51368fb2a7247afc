package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestCheckIntegrity saves a trial and a result, checks that the database
// is found consistent, then plants an orphan row behind a declared foreign
// key (with the key's enforcement switched off for that statement), one
// behind TAUdb's undeclared analysis_result.analysis_settings and a trial
// without threads, and checks that each is reported.
func TestCheckIntegrity(t *testing.T) {
	tr := genTrial(t, "small", 4, 10)
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Init(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		refs, err := db.ForeignKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range refs {
			names = append(names, r.String())
		}
		for _, want := range []string{"thread(trial) -> trial(id)", "timer_value(timer_call_data) -> timer_call_data(id)",
			"timer_callpath(parent) -> timer_callpath(id)", "analysis_result_value(analysis_result) -> analysis_result(id)"} {
			if !slices.Contains(names, want) {
				t.Errorf("foreign keys lack %s: %v", want, names)
			}
		}
		in, err := db.CheckIntegrity(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !in.OK() || in.References != len(refs)+1 {
			t.Fatalf("fresh database: %+v (%d foreign keys)", in, len(refs))
		}

		off, on := `PRAGMA foreign_keys = OFF; `, `; PRAGMA foreign_keys = ON`
		if db.Dialect() == store.Postgres {
			off, on = `SET session_replication_role = replica; `, `; RESET session_replication_role`
		}
		storetest.Exec(t, db, off+`INSERT INTO thread (trial, node_rank, context_rank, thread_rank, thread_index) VALUES (424242, 0, 0, 0, 0)`+on)
		storetest.Exec(t, db, `INSERT INTO analysis_result (analysis_settings, description, result_type) VALUES (434343, 'orphan', 0)`)
		storetest.Exec(t, db, `INSERT INTO trial (name) VALUES ('no threads')`)
		in, err = db.CheckIntegrity(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(in.Problems(), "\n")
		want := "1 rows of thread(trial) -> trial(id) point at no row of trial\n" +
			"1 rows of analysis_result(analysis_settings) -> analysis_settings(id) point at no row of analysis_settings\n"
		if len(in.EmptyTrials) != 1 || !strings.HasPrefix(got, want) ||
			!strings.HasSuffix(got, "has no thread rows (a partial trial)") || in.OK() {
			t.Errorf("problems:\n%s\nwant\n%s trial N has no thread rows (a partial trial)", got, want)
		}
	})
}
