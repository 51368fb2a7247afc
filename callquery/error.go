package callquery

import (
	"fmt"
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
	return &Error{Line: line, Column: 1 + utf8.RuneCountInString(before), Offset: off, Msg: fmt.Sprintf(format, args...)}
}
