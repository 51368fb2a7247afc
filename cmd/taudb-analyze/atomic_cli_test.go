package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// injectFailure makes every INSERT into table for which cond (an SQL
// condition on NEW) holds fail with "injected failure"; the returned
// function removes the trigger.
func injectFailure(t *testing.T, db *store.DB, table, cond string) (remove func()) {
	t.Helper()
	if db.Dialect() == store.Postgres {
		storetest.Exec(t, db, `CREATE FUNCTION injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'injected failure'; END $$;
CREATE TRIGGER injected_failure BEFORE INSERT ON `+table+` FOR EACH ROW WHEN (`+cond+`) EXECUTE FUNCTION injected_failure()`)
		return func() {
			storetest.Exec(t, db, `DROP TRIGGER injected_failure ON `+table+`; DROP FUNCTION injected_failure()`)
		}
	}
	storetest.Exec(t, db, `CREATE TRIGGER injected_failure BEFORE INSERT ON `+table+` WHEN `+cond+`
BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
	return func() { storetest.Exec(t, db, `DROP TRIGGER injected_failure`) }
}

// fourThreads writes a trial of four threads: threads 0 and 1 spend their
// time in "work", threads 2 and 3 in "comm", so k-means with k = 2 has two
// clusters to find.
func fourThreads(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for th := range 4 {
		work, comm := 90+th, 5
		if th >= 2 {
			work, comm = 5, 90+th
		}
		p := fmt.Sprintf("3 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"+
			"\"main\" 1 2 5 %d 0 GROUP=\"TAU_DEFAULT\"\n\"work\" 1 0 %d %d 0 GROUP=\"TAU_USER\"\n\"comm\" 1 0 %d %d 0 GROUP=\"MPI\"\n0 aggregates\n",
			5+work+comm, work, work, comm, comm)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("profile.%d.0.0", th)), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// resultRows counts the rows of the tables a result writes to.
func resultRows(t *testing.T, db *store.DB) string {
	t.Helper()
	return strings.Join(storetest.Query(t, db, `SELECT (SELECT COUNT(*) FROM analysis_settings), (SELECT COUNT(*) FROM analysis_settings_parameter),
(SELECT COUNT(*) FROM analysis_result), (SELECT COUNT(*) FROM analysis_result_value)`)[0], " ")
}

// TestClusterImagesCommitWithResult: when the insert of a picture fails
// (a trigger on analysis_result rows with an image), `cluster` exits 1
// naming the failure and no row of the result is left (the four result
// tables empty, as before); `db check` is clean. Without the trigger the
// same command stores the result (2 settings rows: its own and
// PerfExplorer's viewer row) with its 5 k-means pictures.
func TestClusterImagesCommitWithResult(t *testing.T) {
	dir := fourThreads(t)
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "db", "init")
		ok(t, nil, "--db", url, "load", "-n", "four", dir)
		db := openURL(t, url)
		remove := injectFailure(t, db, "analysis_result", "NEW.image IS NOT NULL")
		fails(t, 1, "injected failure", "--db", url, "cluster", "--trial", "four", "-k", "2", "--reduce", "none")
		if got := resultRows(t, db); got != "0 0 0 0" {
			t.Errorf("after the failed cluster: settings, parameters, results, values %s; want none", got)
		}
		ok(t, nil, "--db", url, "db", "check")
		storetest.CheckIntegrity(t, db)
		remove()
		ok(t, nil, "--db", url, "cluster", "--trial", "four", "-k", "2", "--reduce", "none")
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM analysis_settings`)[0][0]; n != "2" {
			t.Errorf("%s settings rows, want 2", n)
		}
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM analysis_result WHERE image IS NOT NULL`)[0][0]; n != "5" {
			t.Errorf("%s pictures, want 5 (k-means: no dendrogram)", n)
		}
	})
}

// TestRatioSaveMetricCommitsWithResult: when the result's cells fail (a
// trigger on analysis_result_value), `ratio --save-metric` exits 1 and
// stores neither the result nor the derived metric (before, the metric
// was committed first and stayed). Without the trigger both are stored
// and the result's analysis_settings.metric is the new metric.
func TestRatioSaveMetricCommitsWithResult(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "db", "init")
		ok(t, nil, "--db", url, "load", "-n", "run", goodTrial(t, t.TempDir(), "run"))
		db := openURL(t, url)
		args := []string{"--db", url, "ratio", "--trial", "run", "--name", "HALF", "--expr", "TIME / 2", "--save-metric"}
		remove := injectFailure(t, db, "analysis_result_value", "NEW.row_index >= 0")
		fails(t, 1, "injected failure", args...)
		if n := storetest.Query(t, db, `SELECT COUNT(*) FROM metric WHERE name = 'HALF'`)[0][0]; n != "0" {
			t.Errorf("%s metrics HALF after the failed save, want 0", n)
		}
		if got := resultRows(t, db); got != "0 0 0 0" {
			t.Errorf("after the failed ratio: settings, parameters, results, values %s; want none", got)
		}
		ok(t, nil, "--db", url, "db", "check")
		remove()
		ok(t, nil, args...)
		row := storetest.Query(t, db, `SELECT m.name, m.derived FROM analysis_settings s JOIN metric m ON m.id = s.metric`)
		if len(row) != 1 || row[0][0] != "HALF" || (row[0][1] != "true" && row[0][1] != "1") {
			t.Errorf("the result's metric: %v, want the derived metric HALF", row)
		}
		storetest.CheckIntegrity(t, db)
	})
}
