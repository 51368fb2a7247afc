package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/store"
)

// libpqForms lists every way libpq lets a password be written, with the
// redacted text expected and the parts of the password that must not
// survive redaction (as written and as libpq decodes it).
var libpqForms = []struct {
	in, want string
	secrets  []string
}{
	// Unquoted, a backslash escapes the next character, a blank included.
	{`host=h password=Secret\ PartTwo dbname=d`, "host=h password=xxxxx dbname=d", []string{"Secret", "PartTwo"}},
	{`host=h password=Back\\slash dbname=d`, "host=h password=xxxxx dbname=d", []string{"Back", "slash"}},
	{`host=h password=Quote\'Mark dbname=d`, "host=h password=xxxxx dbname=d", []string{"Quote", "Mark"}},
	{`password=TrailingEscape\`, "password=xxxxx", []string{"TrailingEscape"}},
	{"host=h\tpassword=TabSep\tdbname=d", "host=h\tpassword=xxxxx\tdbname=d", []string{"TabSep"}},
	{"host=h\npassword=LineSep\ndbname=d", "host=h\npassword=xxxxx\ndbname=d", []string{"LineSep"}},
	// Quoted: blanks are part of it; \' and \\ are escapes.
	{`host=h password='Two Words' dbname=d`, "host=h password=xxxxx dbname=d", []string{"Two", "Words"}},
	{`host=h password='It\'s \\ Mine' dbname=d`, "host=h password=xxxxx dbname=d", []string{"It", "Mine"}},
	{`host=h password='' dbname=d`, "host=h password=xxxxx dbname=d", nil},
	{`host=h password = 'Spaced Out' dbname=d`, "host=h password = xxxxx dbname=d", []string{"Spaced", "Out"}},
	{`host=h password='Unterminated Quote`, "host=h password=xxxxx", []string{"Unterminated", "Quote"}},
	{`host=h sslpassword='Key Pass' dbname=d`, "host=h sslpassword=xxxxx dbname=d", []string{"Key", "Pass"}},
	// Quoted inside an error message.
	{`cannot connect to "host=h password=Secret\ PartTwo": refused`, `cannot connect to "host=h password=xxxxx refused`, []string{"Secret", "PartTwo"}},
	// URLs: percent-encoding in the user information and the query.
	{"postgres://u:Pct%20Enc%3AOded@h/db", "postgres://u:xxxxx@h/db", []string{"Pct", "Enc", "Oded"}},
	{"postgres://u@h/db?password=Query%20Secret&sslmode=disable", "postgres://u@h/db?password=xxxxx&sslmode=disable", []string{"Query", "Secret"}},
	{"postgres://u@h/db?sslmode=disable&%70assword=EncodedKey", "postgres://u@h/db?sslmode=disable&%70assword=xxxxx", []string{"EncodedKey"}},
	{"postgresql://u:UserInfo@h/db?password=AndQuery", "postgresql://u:xxxxx@h/db?password=xxxxx", []string{"UserInfo", "AndQuery"}},
}

// TestRedactLibpqForms redacts every form of libpqForms.
func TestRedactLibpqForms(t *testing.T) {
	for _, c := range libpqForms {
		got := store.Redact(c.in)
		if got != c.want && !strings.HasPrefix(got, c.want) {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, s := range c.secrets {
			if strings.Contains(got, s) {
				t.Errorf("Redact(%q) = %q still holds %q", c.in, got, s)
			}
		}
	}
}

// TestOpenErrorsLibpqForms opens keyword/value strings of every quoting
// form on a port where nothing listens (1): the error names the masked
// string and holds no part of the password.
func TestOpenErrorsLibpqForms(t *testing.T) {
	for _, pw := range []string{`Secret\ PartTwo`, `'Two Words'`, `'It\'s \\ Mine'`, `Back\\slash`} {
		conn := "host=127.0.0.1 port=1 user=postgres password=" + pw + " dbname=test sslmode=disable connect_timeout=5"
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		db, err := store.Open(ctx, conn)
		cancel()
		if err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", store.Redact(conn))
			continue
		}
		for e := err; e != nil; e = errors.Unwrap(e) {
			for _, s := range []string{"Secret", "PartTwo", "Two", "Words", "Mine", "Back", "slash"} {
				if strings.Contains(e.Error(), s) {
					t.Errorf("password %s: error leaks %q: %v", pw, s, e)
				}
			}
		}
		if !strings.Contains(err.Error(), "password=xxxxx") {
			t.Errorf("password %s: error does not show the masked string: %v", pw, err)
		}
	}
}
