package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// fetch measures row 4: the rows of LoadTrial's queries per second of
// LoadTrial, against the same queries' rows per second of COPY (query) TO
// STDOUT (text format, discarded) on one pgx connection.
func (b *bench) fetch(ctx context.Context, db *store.DB, conn *pgconn.PgConn, id int64) error {
	start := time.Now()
	tr, err := db.LoadTrial(ctx, id)
	if err != nil {
		return fmt.Errorf("load the trial: %w", err)
	}
	load := time.Since(start).Seconds()

	queries, err := db.TrialQueries(ctx, id)
	if err != nil {
		return err
	}
	var rows int64
	start = time.Now()
	for _, q := range queries {
		n, err := copyTo(ctx, conn, q)
		if err != nil {
			return err
		}
		rows += n
	}
	copySeconds := time.Since(start).Seconds()
	n := float64(rows)
	b.add(Row{Step: 4, Figure: "fetch from PostgreSQL: LoadTrial into the model, " + b.mode.Ingest.String(), Value: n / load, Unit: "rows/s",
		Ref: n / copySeconds, RefUnit: "rows/s", RefWhat: "`COPY (LoadTrial's queries) TO STDOUT` through pgx",
		Notes: fmt.Sprintf("%s rows, %s values; load %.2f s, COPY TO %.2f s", Num(n), Num(float64(values(tr))), load, copySeconds)})
	return nil
}

// copyTo runs COPY (q) TO STDOUT, discarding the text, and returns its
// rows; a query with settings runs in a transaction after them, as
// LoadTrial runs it.
func copyTo(ctx context.Context, conn *pgconn.PgConn, q store.TrialQuery) (int64, error) {
	if q.Settings != "" {
		if _, err := conn.Exec(ctx, "BEGIN; "+q.Settings).ReadAll(); err != nil {
			return 0, fmt.Errorf("settings of LoadTrial's query %q: %w", q.SQL, err)
		}
		defer func() { conn.Exec(ctx, "COMMIT").ReadAll() }() //nolint:errcheck // read only: nothing to keep
	}
	tag, err := conn.CopyTo(ctx, io.Discard, "COPY ("+q.SQL+") TO STDOUT")
	if err != nil {
		return 0, fmt.Errorf("COPY TO of LoadTrial's query %q: %w", q.SQL, err)
	}
	return tag.RowsAffected(), nil
}
