package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// TestLongNamesStored loads a profile with a timer name of 3,000 bytes and
// a user event of 2,208 bytes, over TAUdb's 2,048: the load succeeds with a
// warning, the regions carry the short name (start and hash), the table
// trial_long_name holds both full names, "db check" passes, and deleting
// the trial deletes them.
func TestLongNamesStored(t *testing.T) {
	timer, event := strings.Repeat("T", 3000), strings.Repeat("E", 2208)
	prof := edit(`"work"`, `"`+timer+`"`) + "1 userevents\n# eventname numevents max min mean sumsqr\n\"" + event + "\" 1 1 1 1 1\n"
	databases(t, func(t *testing.T, url string) {
		dir := filepath.Join(t.TempDir(), "p")
		mkdir(t, dir)
		if err := os.WriteFile(filepath.Join(dir, "profile.0.0.0"), []byte(prof), 0o644); err != nil {
			t.Fatal(err)
		}
		ok(t, nil, "--db", url, "db", "init")
		r := ok(t, nil, "--db", url, "load", "-n", "long", dir)
		if !strings.Contains(r.stderr, "2 names longer than TAUdb's 2048 bytes shortened") {
			t.Errorf("no warning: %s", clipTo(r.stderr, 300))
		}
		r = ok(t, nil, "--db", url, "--format", "csv", "regions", "--trial", "long", "--no-save")
		if !strings.Contains(r.stdout, drg.ShortName(timer)) {
			t.Errorf("regions lack the short name:\n%s", clipTo(r.stdout, 300))
		}
		db, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		rows := storetest.Query(t, db, `SELECT short_name, full_name FROM trial_long_name ORDER BY full_name`)
		if len(rows) != 2 || rows[0][1] != event || rows[1][1] != timer || rows[0][0] != drg.ShortName(event) || rows[1][0] != drg.ShortName(timer) {
			t.Errorf("trial_long_name holds %d rows", len(rows))
		}
		ok(t, nil, "--db", url, "db", "check")
		ok(t, nil, "--db", url, "delete", "--trial", "long")
		if rows := storetest.Query(t, db, `SELECT count(*) FROM trial_long_name`); rows[0][0] != "0" {
			t.Errorf("%s rows left after delete", rows[0][0])
		}
	})
}
