package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

func TestRedact(t *testing.T) {
	for _, c := range []struct {
		in, want string
		secrets  []string
	}{
		{"postgres://u:secret@h:5432/db?sslmode=disable", "postgres://u:xxxxx@h:5432/db?sslmode=disable", []string{"secret"}},
		{"postgresql://u:s%40cr%2Ft@h/db", "postgresql://u:xxxxx@h/db", []string{"s%40cr%2Ft", "s@cr/t"}},
		{"postgres://u:p@ss/w?rd @x@h/db", "postgres://u:xxxxx@h/db", []string{"p@ss", "w?rd", "@x"}},
		{"postgres://u:a:b:c@h/db", "postgres://u:xxxxx@h/db", []string{"a:b:c"}},
		{"postgres://u@h/db?sslmode=disable&password=secret", "postgres://u@h/db?sslmode=disable&password=xxxxx", []string{"secret"}},
		{"postgres://u@h/db?pass%77ord=secret&sslpassword=keypw", "postgres://u@h/db?pass%77ord=xxxxx&sslpassword=xxxxx", []string{"secret", "keypw"}},
		{"mysql://root:secret@h/db", "mysql://root:xxxxx@h/db", []string{"secret"}},
		{"postgres://h:5432/db", "postgres://h:5432/db", nil},
		{"postgres://u@h/db", "postgres://u@h/db", nil},
		{"host=h password=secret dbname=d", "host=h password=xxxxx dbname=d", []string{"secret"}},
		{"password=secret", "password=xxxxx", []string{"secret"}},
		{"password=xxxxxSecret", "password=xxxxx", []string{"Secret"}},
		{"host=h password = 'se cret' dbname=d", "host=h password = xxxxx dbname=d", []string{"se cret", "cret"}},
		{`host=h PASSWORD='it\'s secret' dbname=d`, "host=h PASSWORD=xxxxx dbname=d", []string{"secret", "it"}},
		{"host=h sslpassword=keypw", "host=h sslpassword=xxxxx", []string{"keypw"}},
		{"sqlite:/tmp/x.db", "sqlite:/tmp/x.db", nil},
		{"/home/u/password=1/x.db", "/home/u/password=1/x.db", nil},
		{"connect to `postgres://u:secret@h/db`: refused", "connect to `postgres://u:xxxxx@h/db`: refused", []string{"secret"}},
		{"cannot parse `host=h password=secret`: bad", "cannot parse `host=h password=xxxxx", []string{"secret"}},
		{"password authentication failed for user \"u\"", "password authentication failed for user \"u\"", nil},
	} {
		got := store.Redact(c.in)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, s := range c.secrets {
			if strings.Contains(got, s) {
				t.Errorf("Redact(%q) = %q still holds %q", c.in, got, s)
			}
		}
	}
}

// TestPostgresErrorsDoNotLeakPasswords opens PostgreSQL URLs that fail, at
// parsing or at connecting, and checks that no error text shows the
// password, in any form.
func TestPostgresErrorsDoNotLeakPasswords(t *testing.T) {
	cases := []struct {
		url     string
		secrets []string
	}{
		// Nothing listens on port 1: the connection is refused.
		{"postgres://postgres:S3cr%40t-pw@127.0.0.1:1/test?sslmode=disable", []string{"S3cr", "S3cr@t-pw", "S3cr%40t-pw"}},
		{"postgresql://postgres:Sl/ashSecret@127.0.0.1:1/test?sslmode=disable", []string{"Sl/ash", "ashSecret"}},
		{"postgres://postgres:Colon:Secret@127.0.0.1:1/test?sslmode=disable", []string{"Colon:Secret", "Secret"}},
		{"postgres://postgres@127.0.0.1:1/test?sslmode=disable&password=QuerySecret", []string{"QuerySecret"}},
		{"host=127.0.0.1 port=1 user=postgres password='Key word pw' dbname=test sslmode=disable", []string{"Key word pw", "word pw"}},
		{"host=127.0.0.1 port=1 user=postgres password=PlainKwSecret dbname=test sslmode=disable", []string{"PlainKwSecret"}},
		// Parse errors: pgx's error text quotes the connection string.
		{"postgres://postgres:Bad%zzSecret@127.0.0.1:5432/test", []string{"Bad%zzSecret", "zzSecret"}},
		{"postgres://postgres:PortSecret@127.0.0.1:notaport/test", []string{"PortSecret"}},
		{"postgres://postgres:TlsSecret@127.0.0.1:5432/test?sslmode=bogus", []string{"TlsSecret"}},
		{"host=127.0.0.1 port=x password=KwParseSecret", []string{"KwParseSecret"}},
		{"host=127.0.0.1 password='Unterminated Secret", []string{"Unterminated Secret", "Unterminated"}},
	}
	if u := storetest.PostgresURL(); u == storetest.DefaultPostgresURL {
		// The server answers, and refuses: no such database.
		cases = append(cases, struct {
			url     string
			secrets []string
		}{"postgres://postgres:DbSecret@127.0.0.1:5432/no_such_database_x9?sslmode=disable", []string{"DbSecret"}})
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		db, err := store.Open(ctx, c.url)
		cancel()
		if err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded, want an error", store.Redact(c.url))
			continue
		}
		var texts []string
		for e := err; e != nil; e = errors.Unwrap(e) {
			texts = append(texts, e.Error(), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e))
		}
		for _, text := range texts {
			for _, s := range c.secrets {
				if strings.Contains(text, s) {
					t.Errorf("Open(%q) error leaks %q: %s", store.Redact(c.url), s, text)
				}
			}
		}
		if !strings.Contains(err.Error(), "xxxxx") {
			t.Errorf("Open(%q) error does not show the masked URL: %v", store.Redact(c.url), err)
		}
	}
}

func TestPostgresErrorKeepsContextErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := store.Open(ctx, "postgres://postgres:CtxSecret@127.0.0.1:1/test?sslmode=disable")
	if err == nil {
		t.Fatal("Open with a canceled context succeeded")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a canceled context: %v does not wrap context.Canceled", err)
	}
	if strings.Contains(err.Error(), "CtxSecret") {
		t.Errorf("error leaks the password: %v", err)
	}
}

// TestPostgresErrorWithCommonWordPassword: a password that is also the user
// name masks that word in the driver's text, not the URL in front of it.
func TestPostgresErrorWithCommonWordPassword(t *testing.T) {
	_, err := store.Open(context.Background(), "postgres://tau:tau@127.0.0.1:1/test?sslmode=disable")
	if err == nil {
		t.Fatal("Open succeeded")
	}
	if want := "connect to postgres://tau:xxxxx@127.0.0.1:1/test?sslmode=disable: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
}
