package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/jackc/pgx/v5/pgconn"
)

// copyFreeze writes the rows of tr into a table created in the current
// transaction with COPY ... (FORMAT binary, FREEZE): the rows are written
// frozen, so that the scans that follow (index builds, key checks, the
// partition bound check of ATTACH) need not set every tuple's hint bits and
// write every page again. FREEZE is allowed only on a table created or
// truncated in the same transaction. The table's integer columns must be
// INT (int4) and its others DOUBLE PRECISION, as in the partitioned tables;
// a row value is an int, int32 or int64 (int4), a float64 (float8) or nil
// (NULL).
func copyFreeze(ctx context.Context, conn *pgconn.PgConn, tr tableRows) error {
	enc := &binaryCopy{next: tr.next, width: len(tr.columns)}
	cols := ""
	for i, c := range tr.columns {
		if i > 0 {
			cols += ", "
		}
		cols += c
	}
	tag, err := conn.CopyFrom(ctx, enc, "COPY "+tr.table+" ("+cols+") FROM STDIN (FORMAT binary, FREEZE)")
	if err == nil {
		err = enc.err
	}
	if err != nil {
		return fmt.Errorf("copy %s: %w", tr.table, err)
	}
	if tag.RowsAffected() != int64(tr.rows) {
		return fmt.Errorf("copy %s: wrote %d rows, expected %d", tr.table, tag.RowsAffected(), tr.rows)
	}
	return nil
}

// binaryCopy is an io.Reader of PostgreSQL's binary COPY format: the
// signature and header, one tuple per row of next (a 16-bit field count,
// then per field its 32-bit length, −1 for NULL, and its bytes in network
// order), and the trailer (−1).
type binaryCopy struct {
	next    func() ([]any, bool)
	width   int
	buf     []byte
	started bool
	done    bool
	err     error
}

// binaryCopyChunk is how many bytes Read encodes ahead.
const binaryCopyChunk = 1 << 16

// Read fills p from the encoded rows, encoding more as needed.
func (b *binaryCopy) Read(p []byte) (int, error) {
	if !b.started {
		b.started = true
		b.buf = append(b.buf, "PGCOPY\n\xff\r\n\x00"...)
		b.buf = binary.BigEndian.AppendUint32(b.buf, 0) // flags
		b.buf = binary.BigEndian.AppendUint32(b.buf, 0) // header extension length
	}
	for !b.done && len(b.buf) < binaryCopyChunk {
		row, ok := b.next()
		if !ok {
			b.buf = binary.BigEndian.AppendUint16(b.buf, 0xffff)
			b.done = true
			break
		}
		if err := b.appendRow(row); err != nil {
			b.err = err
			return 0, err
		}
	}
	if len(b.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.buf)
	b.buf = b.buf[:copy(b.buf, b.buf[n:])]
	return n, nil
}

// appendRow encodes one tuple.
func (b *binaryCopy) appendRow(row []any) error {
	if len(row) != b.width {
		return fmt.Errorf("a row of %d values for %d columns", len(row), b.width)
	}
	b.buf = binary.BigEndian.AppendUint16(b.buf, uint16(b.width))
	for i, v := range row {
		switch x := v.(type) {
		case nil:
			b.buf = binary.BigEndian.AppendUint32(b.buf, 0xffffffff)
		case float64:
			b.buf = binary.BigEndian.AppendUint32(b.buf, 8)
			b.buf = binary.BigEndian.AppendUint64(b.buf, math.Float64bits(x))
		case int64:
			if err := b.appendInt4(i, x); err != nil {
				return err
			}
		case int32:
			b.appendInt4(i, int64(x)) //nolint:errcheck // an int32 always fits
		case int:
			if err := b.appendInt4(i, int64(x)); err != nil {
				return err
			}
		default:
			return fmt.Errorf("column %d: a value of type %T", i+1, v)
		}
	}
	return nil
}

// appendInt4 encodes x as an INT field; it must fit in 32 bits.
func (b *binaryCopy) appendInt4(col int, x int64) error {
	if x < math.MinInt32 || x > math.MaxInt32 {
		return fmt.Errorf("column %d: %d does not fit an INT", col+1, x)
	}
	b.buf = binary.BigEndian.AppendUint32(b.buf, 4)
	b.buf = binary.BigEndian.AppendUint32(b.buf, uint32(int32(x)))
	return nil
}
