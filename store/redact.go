package store

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// mask replaces every password that Redact finds.
const mask = "xxxxx"

var (
	// keywordPassword finds "password=" and "sslpassword=" (blanks allowed
	// around "=") in a libpq keyword/value string or a text quoting one;
	// the value that follows is read by libpqValue.
	keywordPassword = regexp.MustCompile(`(?i)(?:^|[\s'"` + "`" + `(,;])(?:ssl)?password\s*=\s*`)
	// urlScheme matches a URL's scheme and "://" at the start of a string.
	urlScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)
	// embeddedURL finds a URL quoted inside a longer text.
	embeddedURL = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"` + "`" + `]*`)
)

// Redact returns s with every password in it replaced by "xxxxx", so that s
// can be printed or put in an error message. s is a URL
// (postgres://user:secret@host/db, including password= and sslpassword=
// query parameters; any other scheme:// URL likewise), a libpq keyword/value
// string (host=h password='a b'), or a text quoting either, such as an error
// message. Anything else, an SQLite path for instance, comes back unchanged.
//
// When s itself is a URL it is taken to end at the end of s, so a password
// holding '@', '/', '?' or blanks is masked whole: everything from the first
// ':' after the user name up to the last '@' in s is masked. Malformed URLs
// may be masked more than necessary, never less.
func Redact(s string) string {
	if urlScheme.MatchString(s) {
		return redactURL(s)
	}
	s = embeddedURL.ReplaceAllStringFunc(s, redactURL)
	var b strings.Builder
	for {
		loc := keywordPassword.FindStringIndex(s)
		if loc == nil {
			b.WriteString(s)
			return b.String()
		}
		raw, _ := libpqValue(s[loc[1]:])
		b.WriteString(s[:loc[1]])
		if rest, ok := strings.CutPrefix(raw, mask); ok && strings.Trim(rest, "`'\":;,.)") == "" {
			b.WriteString(raw) // masked already, by a first pass: keep the quoting that follows
		} else {
			b.WriteString(mask)
		}
		s = s[loc[1]+len(raw):]
	}
}

// libpqValue reads a value at the start of s as libpq's conninfo parser
// does: a value in single quotes runs to the next quote not escaped by a
// backslash ('it\'s a \\ b'); an unquoted one runs to the next blank that
// is not escaped by a backslash (Secret\ PartTwo is one value); in both, a
// backslash makes the next character literal. It returns the value as
// written (raw, with its quotes) and as libpq decodes it.
func libpqValue(s string) (raw, decoded string) {
	var d strings.Builder
	quoted := strings.HasPrefix(s, "'")
	i := 0
	if quoted {
		i = 1
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			d.WriteByte(s[i+1])
			i += 2
			continue
		case quoted && c == '\'':
			return s[:i+1], d.String()
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'):
			return s[:i], d.String()
		}
		d.WriteByte(c)
		i++
	}
	return s, d.String()
}

// redactURL masks the passwords of a URL (postgres://, or any scheme://):
// the userinfo password and the password and sslpassword query parameters.
func redactURL(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return s
	}
	head, rest := s[:i+3], s[i+3:]
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		if c := strings.IndexByte(rest[:at], ':'); c >= 0 {
			rest = rest[:c+1] + mask + rest[at:]
		}
	}
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		rest = rest[:q+1] + redactQuery(rest[q+1:])
	}
	return head + rest
}

// redactQuery masks the values of the password and sslpassword parameters of
// a URL query, however their names are percent-encoded.
func redactQuery(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		k, _, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if isPasswordKey(k) {
			parts[i] = k + "=" + mask
		}
	}
	return strings.Join(parts, "&")
}

// isPasswordKey reports whether a raw query key names a password.
func isPasswordKey(k string) bool {
	if d, err := url.QueryUnescape(k); err == nil {
		k = d
	}
	k = strings.ToLower(strings.TrimSpace(k))
	return k == "password" || k == "sslpassword"
}

// passwordsIn returns the passwords written in a connection string, both as
// written and decoded, longest first: the userinfo password and password
// query parameters of a URL, or the password values of a keyword/value
// string. They are what scrub must remove from an error text.
func passwordsIn(conn string) []string {
	var out []string
	add := func(raw string) {
		if raw == "" {
			return
		}
		out = append(out, raw)
		if d, err := url.PathUnescape(raw); err == nil && d != raw {
			out = append(out, d)
		}
		if d, err := url.QueryUnescape(raw); err == nil && d != raw {
			out = append(out, d)
		}
	}
	if urlScheme.MatchString(conn) {
		rest := conn[strings.Index(conn, "://")+3:]
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			if c := strings.IndexByte(rest[:at], ':'); c >= 0 {
				add(rest[c+1 : at])
			}
		}
		if q := strings.IndexByte(rest, '?'); q >= 0 {
			for _, p := range strings.Split(rest[q+1:], "&") {
				if k, v, ok := strings.Cut(p, "="); ok && isPasswordKey(k) {
					add(v)
				}
			}
		}
	} else {
		for _, loc := range keywordPassword.FindAllStringIndex(conn, -1) {
			raw, decoded := libpqValue(conn[loc[1]:])
			add(raw)
			add(strings.TrimSuffix(strings.TrimPrefix(raw, "'"), "'"))
			add(decoded)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// scrub returns text with every secret in it masked, then Redact applied.
// Secrets are replaced longest first, so that a password that contains
// another is masked whole.
func scrub(text string, secrets ...string) string {
	s := append([]string(nil), secrets...)
	sort.Slice(s, func(i, j int) bool { return len(s[i]) > len(s[j]) })
	for _, sec := range s {
		if sec != "" {
			text = strings.ReplaceAll(text, sec, mask)
		}
	}
	return Redact(text)
}

// redactedError is an error whose text has been scrubbed of passwords. It
// does not unwrap to the error it was made from, whose text may hold them;
// it unwraps to context.Canceled or context.DeadlineExceeded when the
// original error was one of those, so that callers can still tell.
type redactedError struct {
	msg   string
	cause error
}

// Error returns the scrubbed message.
func (e *redactedError) Error() string { return e.msg }

// Unwrap returns the context error behind e, if any.
func (e *redactedError) Unwrap() error { return e.cause }

// newRedactedError builds "PREFIX: ERR" with err's text scrubbed of secrets
// (see scrub). prefix must be free of passwords already (built with Redact);
// it is not scrubbed, so that a password that is also a common word (the
// user name, say) does not mask it.
func newRedactedError(prefix string, err error, secrets ...string) error {
	e := &redactedError{msg: prefix + ": " + scrub(err.Error(), secrets...)}
	switch {
	case errors.Is(err, context.Canceled):
		e.cause = context.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		e.cause = context.DeadlineExceeded
	}
	return e
}

// hasPrefixFold reports whether s begins with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
