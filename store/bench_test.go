package store_test

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// benchValueColumns are timer_value's columns, in order.
const benchValueColumns = `timer_call_data, metric, inclusive_value, exclusive_value, inclusive_percent, exclusive_percent, sum_exclusive_squared`

// benchLoadQuery is the bulk of what LoadTrial reads (its loadValuesQuery,
// for the only trial of the schema).
const benchLoadQuery = `SELECT tcd.timer_callpath, tcd.thread, tcd.calls, tcd.subroutines, tv.metric, tv.inclusive_value, tv.exclusive_value
FROM timer_call_data tcd JOIN thread th ON th.id = tcd.thread
LEFT JOIN timer_value tv ON tv.timer_call_data = tcd.id
WHERE th.node_rank >= 0 AND tcd.time_range IS NULL`

// BenchmarkPostgresTrial measures SaveTrial and LoadTrial on PostgreSQL
// with a generated trial of 256 threads × 501 nodes × 2 metrics, next to
// PostgreSQL's own bulk paths for the same rows in the same run:
//
//   - save_rows/s: rows of every table SaveTrial writes, per second of
//     SaveTrial; save_value_rows/s: its timer_value rows per second;
//   - psql_rows/s: psql's \copy of the same timer_value rows (exported
//     after each save, untimed) from a CSV file
//     into a scratch table of timer_value's columns and index, without
//     foreign keys; psql_fk_rows/s: the same into a scratch table that also
//     has timer_value's two foreign keys (checked against the saved trial);
//   - save/psql and save/psql_fk: save_rows/s divided by those;
//   - load_rows/s: the rows of LoadTrial's bulk query (a timer_value row
//     with its timer_call_data) per second of LoadTrial, and copyto_rows/s
//     the same query's rows per second of COPY (...) TO STDOUT through pgx;
//     load/copyto their ratio.
func BenchmarkPostgresTrial(b *testing.B) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		b.Skip("psql not found")
	}
	schema := storetest.NewPostgresSchema(b)
	db := openPostgresApp(b, schema, randomName(b))
	ctx := context.Background()
	if _, err := db.Init(ctx); err != nil {
		b.Fatal(err)
	}
	tr := genTrial(b, "bench", 256, 500)
	pg := storetest.PostgresURL()
	runPsql := func(cmd string) time.Duration {
		b.Helper()
		start := time.Now()
		if out, err := exec.Command(psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", pg, "-c", cmd).CombinedOutput(); err != nil {
			b.Fatalf("psql %s: %v\n%s", cmd, err, out)
		}
		return time.Since(start)
	}

	// The row counts of one save, and the scratch tables.
	id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
	if err != nil {
		b.Fatal(err)
	}
	total := 0
	for _, n := range counts(b, db, id) {
		total += n
	}
	values, _ := strconv.Atoi(storetest.Query(b, db, `SELECT COUNT(*) FROM timer_value`)[0][0])
	loadRows, _ := strconv.Atoi(storetest.Query(b, db, `SELECT COUNT(*) FROM (`+benchLoadQuery+`) q`)[0][0])
	csv := filepath.Join(b.TempDir(), "timer_value.csv")
	if err := db.DeleteTrial(ctx, id); err != nil {
		b.Fatal(err)
	}
	storetest.Exec(b, db, `CREATE TABLE scratch (LIKE timer_value INCLUDING INDEXES);
CREATE TABLE scratch_fk (LIKE timer_value INCLUDING INDEXES,
  FOREIGN KEY (timer_call_data) REFERENCES timer_call_data(id), FOREIGN KEY (metric) REFERENCES metric(id))`)
	b.Logf("trial: %s; SaveTrial writes %d rows, %d of them timer_value; LoadTrial's bulk query reads %d rows", describe(tr), total, values, loadRows)

	var save, cp, cpFK, load, copyTo time.Duration
	conn, err := db.Pool().Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	for b.Loop() {
		start := time.Now()
		id, err := db.SaveTrial(ctx, tr, store.SaveOptions{})
		if err != nil {
			b.Fatal(err)
		}
		save += time.Since(start)

		// This save's rows as CSV (not timed), so that the foreign keys hold.
		runPsql(`\copy ` + schema + `.timer_value (` + benchValueColumns + `) TO '` + csv + `' CSV`)

		cp += runPsql(`\copy ` + schema + `.scratch (` + benchValueColumns + `) FROM '` + csv + `' CSV`)
		cpFK += runPsql(`\copy ` + schema + `.scratch_fk (` + benchValueColumns + `) FROM '` + csv + `' CSV`)
		storetest.Exec(b, db, `TRUNCATE scratch, scratch_fk`)

		start = time.Now()
		if _, err := db.LoadTrial(ctx, id); err != nil {
			b.Fatal(err)
		}
		load += time.Since(start)

		start = time.Now()
		tag, err := conn.Conn().PgConn().CopyTo(ctx, io.Discard, `COPY (`+benchLoadQuery+`) TO STDOUT`)
		if err != nil {
			b.Fatal(err)
		}
		copyTo += time.Since(start)
		if tag.RowsAffected() != int64(loadRows) {
			b.Fatalf("COPY TO gave %d rows, want %d", tag.RowsAffected(), loadRows)
		}
		if err := db.DeleteTrial(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	perSec := func(rows int, d time.Duration) float64 { return float64(rows) * float64(b.N) / d.Seconds() }
	b.ReportMetric(perSec(total, save), "save_rows/s")
	b.ReportMetric(perSec(values, save), "save_value_rows/s")
	b.ReportMetric(perSec(values, cp), "psql_rows/s")
	b.ReportMetric(perSec(values, cpFK), "psql_fk_rows/s")
	b.ReportMetric(perSec(total, save)/perSec(values, cp), "save/psql")
	b.ReportMetric(perSec(total, save)/perSec(values, cpFK), "save/psql_fk")
	b.ReportMetric(perSec(loadRows, load), "load_rows/s")
	b.ReportMetric(perSec(loadRows, copyTo), "copyto_rows/s")
	b.ReportMetric(perSec(loadRows, load)/perSec(loadRows, copyTo), "load/copyto")
}
