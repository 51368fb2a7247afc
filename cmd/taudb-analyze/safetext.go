package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unsafeRune reports whether r must not reach a terminal raw: C0 controls
// (ESC starts escape sequences that clear the screen or set the window
// title, CR overwrites a line, BEL rings), DEL, C1 controls (U+0080 to
// U+009F, CSI among them) and the bidirectional overrides and isolates,
// which reorder what is shown. Line feed and tab are the caller's to allow.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// escapeText returns s with every unsafe rune (see unsafeRune) written as
// Go escapes it: \x1b for a byte-sized one, \u202e for another; keep lists
// the control characters left as they are ("\n" for a message of several
// lines, "" for a table cell, where a line feed or a tab would forge a row
// or a column). Bytes that are not UTF-8 are written \xff. A string with
// nothing to escape is returned as is.
func escapeText(s, keep string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || (unsafeRune(r) && !strings.ContainsRune(keep, r)) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r) && !strings.ContainsRune(keep, r):
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// csvCell makes a table cell safe for a spreadsheet, as OWASP recommends
// against formula injection: a cell starting with =, +, -, @, a tab or a
// carriage return is prefixed with a single quote, unless it is a number
// ("-3.5", "+1e6"), which no spreadsheet takes for a formula and which
// must stay a number, or a lone "-" (no value). Control characters are escaped as in a text table.
func csvCell(s string) string {
	s = escapeText(s, "")
	if len(s) < 2 || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}

// safeWriter passes what is written to w with unsafe runes escaped
// (escapeText keeping line feeds and tabs): a catch-all for standard
// output, where names read from files are printed in tables, summaries and
// findings. A rune split between two writes is held until the next one;
// Flush writes what is held.
type safeWriter struct {
	w    io.Writer
	held []byte
}

// Write writes p escaped and reports len(p) written on success.
func (s *safeWriter) Write(p []byte) (int, error) {
	buf := append(s.held, p...)
	s.held = nil
	end := len(buf)
	// Hold back an incomplete rune at the end (at most 3 bytes).
	for k := 1; k < utf8.UTFMax && k <= len(buf); k++ {
		if utf8.RuneStart(buf[len(buf)-k]) {
			if !utf8.FullRune(buf[len(buf)-k:]) {
				end = len(buf) - k
			}
			break
		}
	}
	s.held = append([]byte(nil), buf[end:]...)
	if _, err := io.WriteString(s.w, escapeText(string(buf[:end]), "\n\t")); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a rune held back at the end of the output, escaped.
func (s *safeWriter) Flush() error {
	if len(s.held) == 0 {
		return nil
	}
	_, err := io.WriteString(s.w, escapeText(string(s.held), "\n\t"))
	s.held = nil
	return err
}
