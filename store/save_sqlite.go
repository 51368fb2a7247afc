package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// sqliteBatchParams bounds the parameters of one multi-row INSERT (SQLite
// allows 32766); sqliteBatchRows bounds its rows.
const (
	sqliteBatchParams = 32766
	sqliteBatchRows   = 256
)

// saveSQLite writes the trials in one transaction, which begins IMMEDIATE
// (see OpenSQLite): it holds SQLite's write lock from the start, so the ids
// taken as max(id)+1 cannot be taken by another writer, and the names
// checked cannot be taken meanwhile.
func (db *DB) saveSQLite(ctx context.Context, trials []PendingTrial) ([]SavedTrial, error) {
	for _, pt := range trials {
		if pt.Chunks != nil && pt.Trial == nil && pt.Read == nil {
			return nil, fmt.Errorf("save trial%s: %w", quotedName(trials), ErrChunksNeedPartitions)
		}
	}
	tx, err := db.sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("save trial%s: %w", quotedName(trials), db.busy(fmt.Errorf("begin a transaction: %w", err)))
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	r := sqlRunner{tx}
	keep, err := keptTablesOf(ctx, r, SQLite)
	if err != nil {
		return nil, fmt.Errorf("save trial%s: %w", quotedName(trials), db.busy(err))
	}
	out := make([]SavedTrial, len(trials))
	for i, pt := range trials {
		p, saved, name, err := db.prepareSave(ctx, r, pt)
		if err == nil && p != nil {
			p.keepRange, p.keepLong, p.keepPages = keep.rangeTable, keep.longNames, keep.pages
			err = p.checkBigTables(keep.bigTables)
		}
		if err == nil && p != nil {
			err = insertPlanSQLite(ctx, tx, p)
			saved.ID = p.trialID()
		}
		if err != nil {
			return nil, unwrapRead(db.busy(err), name)
		}
		out[i] = saved
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("save trial %q: %w", out[len(out)-1].Name, db.busy(fmt.Errorf("commit: %w", err)))
	}
	return out, nil
}

// insertPlanSQLite takes the plan's ids and inserts its tables.
func insertPlanSQLite(ctx context.Context, tx *sql.Tx, p *savePlan) error {
	var err error
	for s := range numSerial {
		if p.ids[s], err = sqliteNextID(ctx, tx, serialTables[s]); err != nil {
			return err
		}
	}
	for _, tr := range p.tables() {
		if tr.rows == 0 {
			continue
		}
		beforeTable(ctx, tr.table)
		if err := insertSQLite(ctx, tx, tr); err != nil {
			return fmt.Errorf("insert into %s: %w", tr.table, err)
		}
	}
	return ensureLoadViews(ctx, sqlRunner{tx}, SQLite, p.app, p.exp)
}

// sqliteNextID returns the next free id of table: one more than both the
// largest id in the table and the largest AUTOINCREMENT ever handed out
// (sqlite_sequence), so that ids of deleted rows are never reused.
func sqliteNextID(ctx context.Context, tx *sql.Tx, table string) (int64, error) {
	var next int64
	q := `SELECT MAX(COALESCE((SELECT MAX(id) FROM ` + table + `), 0),
	                 COALESCE((SELECT seq FROM sqlite_sequence WHERE name = $1), 0)) + 1`
	if err := tx.QueryRowContext(ctx, q, table).Scan(&next); err != nil {
		return 0, fmt.Errorf("next id of %s: %w", table, err)
	}
	return next, nil
}

// insertSQLite inserts the rows of tr with prepared multi-row INSERTs.
func insertSQLite(ctx context.Context, tx sqlPreparer, tr tableRows) error {
	width := len(tr.columns)
	batch := min(sqliteBatchRows, sqliteBatchParams/width, tr.rows)
	full, err := tx.PrepareContext(ctx, insertSQL(tr.table, tr.columns, batch))
	if err != nil {
		return err
	}
	defer full.Close()
	args := make([]any, 0, batch*width)
	written := 0
	for {
		row, ok := tr.next()
		if ok {
			args = append(args, row...)
		}
		if len(args) == batch*width || (!ok && len(args) > 0) {
			stmt := full
			if len(args) < batch*width {
				if stmt, err = tx.PrepareContext(ctx, insertSQL(tr.table, tr.columns, len(args)/width)); err != nil {
					return err
				}
				defer stmt.Close()
			}
			if _, err := stmt.ExecContext(ctx, args...); err != nil {
				return err
			}
			written += len(args) / width
			args = args[:0]
		}
		if !ok {
			break
		}
	}
	if written != tr.rows {
		return fmt.Errorf("wrote %d rows, expected %d", written, tr.rows)
	}
	return nil
}

// insertSQL builds "INSERT INTO table (columns) VALUES (?, ...), ..." for
// rows rows; table and column names are the package's constants. The
// parameters are anonymous: the driver looks numbered ones up by name, which
// costs time linear in their number for each one bound.
func insertSQL(table string, columns []string, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO " + table + " (" + strings.Join(columns, ", ") + ") VALUES ")
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range columns {
			if c > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('?')
		}
		b.WriteByte(')')
	}
	return b.String()
}

// ErrBusy is the cause of the error of a write to an embedded (SQLite)
// database that another connection or process was writing to for longer
// than the busy timeout (SQLiteBusyTimeout): SQLite lets one writer at a
// time, and the
// write was not begun, so nothing of it is in the database.
var ErrBusy = errors.New("database is busy")

// busy turns an SQLite "database is locked" (SQLITE_BUSY) error into one
// that says what happened and what to do, wrapping ErrBusy and err; other
// errors come back as they are.
//
// It also turns SQLite's I/O and disk-full errors into one wrapping
// ErrDiskFull that names the file and says nothing was written (every
// write of this package is one transaction, rolled back on error).
func (db *DB) busy(err error) error {
	var coded interface{ Code() int }
	if db.dialect != SQLite || !errors.As(err, &coded) {
		return err
	}
	if isSQLiteIOError(err) && !errors.Is(err, ErrDiskFull) {
		return fmt.Errorf("%w: could not write to %s (the disk is full, or failing); nothing was written, free some space and try again (%w)",
			ErrDiskFull, db.display, err)
	}
	if coded.Code()&0xff != sqliteBusyCode {
		return err
	}
	return fmt.Errorf("%w: another process has been writing to %s for more than %v (the busy timeout, %s); nothing was written, try again when it has finished (%w)",
		ErrBusy, db.display, db.busyTimeout, EnvSQLiteBusyTimeout, err)
}

// ErrDiskFull is the cause of the error of a write to an embedded (SQLite)
// database that failed because the disk is full (or an I/O error): the
// transaction was rolled back, so nothing of the write is in the database.
var ErrDiskFull = errors.New("disk full")

// sqliteBusyCode is SQLITE_BUSY, the primary result code of a lock that
// could not be taken within the busy timeout.
const sqliteBusyCode = 5
