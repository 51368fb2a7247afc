package snapshot

import (
	"bytes"
	"fmt"
	"github.com/taudb-analyze/taudb-analyze/drg"
	"math"
	"strconv"
)

// maxID is the largest event, user-event or metric id accepted, and the
// largest node, context or thread rank.
const maxID = math.MaxInt32

// isBlank reports whether c separates the numbers of a data line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// splitFields appends the blank-separated fields of line to out.
func splitFields(line []byte, out [][]byte) [][]byte {
	i := 0
	for i < len(line) {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		j := i
		for j < len(line) && !isBlank(line[j]) {
			j++
		}
		if j > i {
			out = append(out, line[i:j])
		}
		i = j
	}
	return out
}

// parseID parses a non-negative decimal id of at most maxID.
func parseID(f []byte) (int, error) {
	if len(f) == 0 || len(f) > 10 {
		return 0, fmt.Errorf("bad id %q", clip(f))
	}
	v := 0
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad id %q", clip(f))
		}
		v = v*10 + int(c-'0')
	}
	if v > maxID {
		return 0, fmt.Errorf("id %s out of range", f)
	}
	return v, nil
}

// parseNumber parses a decimal number as TAU prints it (%ld or %.16G). NaN,
// infinities, hexadecimal and anything that is not a finite decimal number
// are errors.
func parseNumber(f []byte) (float64, error) {
	// Fast path: an integer of at most 15 digits is exact in a float64.
	if len(f) > 0 && len(f) <= 15 {
		neg := f[0] == '-'
		d := f
		if neg {
			d = f[1:]
		}
		if len(d) > 0 {
			v := int64(0)
			ok := true
			for _, c := range d {
				if c < '0' || c > '9' {
					ok = false
					break
				}
				v = v*10 + int64(c-'0')
			}
			if ok {
				if neg {
					return -float64(v), nil
				}
				return float64(v), nil
			}
		}
	}
	for _, c := range f {
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, fmt.Errorf("bad number %q", clip(f))
		}
	}
	v, err := strconv.ParseFloat(string(f), 64)
	if err != nil && !(isRangeErr(err) && !math.IsInf(v, 0)) {
		if math.IsInf(v, 0) {
			return 0, fmt.Errorf("number %q out of range", clip(f))
		}
		return 0, fmt.Errorf("bad number %q", clip(f))
	}
	if math.Abs(v) > drg.MaxValue {
		return 0, fmt.Errorf("number %q is %w (±%g)", clip(f), drg.ErrValueRange, drg.MaxValue)
	}
	return v, nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// clip shortens a field for an error message.
func clip(f []byte) string {
	if len(f) > 40 {
		return string(f[:40]) + "..."
	}
	return string(f)
}

// lineSplitter cuts the character data of a data element (which may arrive
// in several pieces) into lines and knows the line number of each.
type lineSplitter struct {
	carry     []byte // a line begun in an earlier piece
	carryLine int    // the line number of carry
	hasCarry  bool
}

// feed passes each complete line of data to fn; line is the line number at
// which data starts. A line not yet ended is kept for the next piece.
func (s *lineSplitter) feed(data []byte, line int, fn func(text []byte, line int) error) error {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if !s.hasCarry {
				s.carryLine, s.hasCarry = line, true
			}
			s.carry = append(s.carry, data...)
			return nil
		}
		text := data[:i]
		at := line
		if s.hasCarry {
			s.carry = append(s.carry, text...)
			text, at = s.carry, s.carryLine
		}
		if err := fn(text, at); err != nil {
			return err
		}
		s.carry, s.hasCarry = s.carry[:0], false
		data = data[i+1:]
		line++
	}
	return nil
}

// flush passes the last, unterminated line, if any.
func (s *lineSplitter) flush(fn func(text []byte, line int) error) error {
	if !s.hasCarry {
		return nil
	}
	text, at := s.carry, s.carryLine
	s.carry, s.hasCarry = s.carry[:0], false
	return fn(text, at)
}
