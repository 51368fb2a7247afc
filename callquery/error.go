package callquery

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a query that cannot be parsed, or that names what a trial does
// not have (a metric, for example). Line and Column say where in the query
// the problem is, both counted from 1, the column in characters (runes),
// so that a front end can point at it; Offset is the same place in bytes.
type Error struct {
	Line, Column, Offset int
	// Msg says what is wrong, without the position.
	Msg string
}

// Error returns "column C: MSG", or "line L, column C: MSG" for a query of
// several lines.
func (e *Error) Error() string {
	if e.Line > 1 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Column, e.Msg)
}

// errAt makes an Error at byte offset off of src.
func errAt(src string, off int, format string, args ...any) *Error {
	off = min(max(off, 0), len(src))
	before := src[:off]
	line := 1 + strings.Count(before, "\n")
	if k := strings.LastIndexByte(before, '\n'); k >= 0 {
		before = before[k+1:]
	}
	return &Error{Line: line, Column: 1 + utf8.RuneCountInString(before), Offset: off, Msg: clean(fmt.Sprintf(format, args...))}
}

// clean writes the control characters (C0, DEL, C1), the bidirectional
// overrides and isolates, and bytes that are not UTF-8 of an error message
// as Go escapes (\x1b, \u202e), so that a hostile query or name shown in
// an error cannot drive a terminal or reorder a line.
func clean(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
