package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEscapeText checks the escapes byte by byte against hand-written
// expectations.
func TestEscapeText(t *testing.T) {
	for _, c := range []struct{ in, keep, want string }{
		{"plain é ✓", "", "plain é ✓"},
		{"\x1b]0;pwned\x07\x1b[2J", "", `\x1b]0;pwned\x07\x1b[2J`},
		{"a\rFAKE\nb\tc", "", `a\x0dFAKE\x0ab\x09c`},
		{"a\rFAKE\nb\tc", "\n\t", "a\\x0dFAKE\nb\tc"},
		{"del\x7f c1\u009b bidi\u202eevil", "", `del\x7f c1\u009b bidi\u202eevil`},
		{"bad\xffutf8", "", `bad\xffutf8`},
	} {
		if got := escapeText(c.in, c.keep); got != c.want {
			t.Errorf("escapeText(%q, %q) = %q, want %q", c.in, c.keep, got, c.want)
		}
	}
}

// TestCSVCell checks OWASP's prefix on formula starts and its absence on
// numbers, plain text and a lone "-".
func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		`=HYPERLINK("http://x","y")`: `'=HYPERLINK("http://x","y")`,
		"@SUM(A1:A9)":                "'@SUM(A1:A9)",
		"+cmd|' /C calc'!A0":         "'+cmd|' /C calc'!A0",
		"-2+3":                       "'-2+3",
		"\t=1":                       `\x09=1`,
		"-3.5":                       "-3.5",
		"+1e6":                       "+1e6",
		"-":                          "-",
		"main":                       "main",
		"":                           "",
	} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSafeWriterSplitRune writes a C1 control (two bytes) and a bidi
// override (three bytes) split across writes: they are escaped whole, and
// Flush writes a rune left incomplete at the end as an escaped byte.
func TestSafeWriterSplitRune(t *testing.T) {
	var b bytes.Buffer
	w := &safeWriter{w: &b}
	for _, p := range []string{"x\xc2", "\x9by\xe2\x80", "\xaez\n\t\x1b", "\xe2"} {
		if _, err := w.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "x\\u009by\\u202ez\n\t\\x1b\\xe2"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// hostileName is a timer name that clears the screen, sets the terminal's
// title, rings and overwrites its line with a forged one.
const hostileName = "\x1b]0;pwned\x07\x1b[2J\rFAKE LINE"

// TestHostileNamesEscaped loads a trial whose trial name and timer names
// hold control characters and a formula, and runs the commands that print
// names: no byte below 0x20 other than line feed and tab, and no DEL,
// reaches standard output; the escaped form does; CSV cells starting with
// = are prefixed with a quote. The folder's name holds ESC too: load's
// messages on standard error show it escaped.
func TestHostileNamesEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p\x1b[2J")
	mkdir(t, dir)
	prof := strings.NewReplacer(`"work"`, `"`+hostileName+`"`, `"main"`, `"=HYPERLINK(""http://x"")"`).Replace(goodProfile)
	if err := os.WriteFile(filepath.Join(dir, "profile.0.0.0"), []byte(prof), 0o644); err != nil {
		t.Fatal(err)
	}
	db := "sqlite:" + filepath.Join(t.TempDir(), "h.db")
	r := ok(t, nil, "--db", db, "load", "-n", "t\x1b[31mred", dir)
	if strings.ContainsAny(r.stderr, "\x1b\r\a") || !strings.Contains(r.stderr, `p\x1b[2J`) {
		t.Errorf("load's messages: %q", r.stderr)
	}
	for _, args := range [][]string{
		{"trials"}, {"inspect", dir}, {"regions", "--trial", "1", "--no-save"}, {"imbalance", "--trial", "1", "--no-save"},
	} {
		for _, format := range []string{"table", "csv"} {
			r := ok(t, nil, append([]string{"--db", db, "--format", format}, args...)...)
			for i := 0; i < len(r.stdout); i++ {
				if c := r.stdout[i]; (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
					t.Errorf("%s %v: byte 0x%02x at %d of:\n%s", format, args, c, i, r.stdout)
					break
				}
			}
			esc := `\x1b]0;pwned\x07\x1b[2J\x0dFAKE LINE`
			if args[0] == "trials" {
				esc = `t\x1b[31mred`
			}
			if !strings.Contains(r.stdout, esc) {
				t.Errorf("%s %v: no %s in:\n%s", format, args, esc, r.stdout)
			}
			if format == "csv" && args[0] != "trials" && !strings.Contains(r.stdout, `'=HYPERLINK(`) {
				t.Errorf("%s %v: formula not prefixed:\n%s", format, args, r.stdout)
			}
		}
	}
}
