package callquery

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tEOF    tokKind = iota
	tIdent          // a name: MATCH, p, STARTS, ...
	tString         // "..." or '...', unquoted in text
	tNumber         // 12, -3.5, 1e6
	tPunct          // ( ) { } , . -> = =~ < <= > >= !=
)

// token is one lexical token; pos is its byte offset in the query.
type token struct {
	kind tokKind
	text string
	pos  int
}

// MaxQueryBytes bounds the length of a query, so that a hostile query
// cannot make the parser or the matcher grow without bound.
const MaxQueryBytes = 64 << 10

// lex splits the query into tokens. Keywords are identifiers; the parser
// tells them apart, case-insensitively.
func lex(src string) ([]token, error) {
	if len(src) > MaxQueryBytes {
		return nil, errAt(src, MaxQueryBytes, "the query is longer than %d bytes", MaxQueryBytes)
	}
	if !utf8.ValidString(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, errAt(src, i, "the query is not valid UTF-8")
	}
	var out []token
	i := 0
	for {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i >= len(src) {
			return append(out, token{kind: tEOF, pos: i}), nil
		}
		tok, n, err := lexOne(src, i)
		if err != nil {
			return nil, err
		}
		out = append(out, tok)
		i += n
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdentStart(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lexOne reads the token at src[i:] and returns it with its length.
func lexOne(src string, i int) (token, int, error) {
	c := src[i]
	switch {
	case isIdentStart(c):
		j := i + 1
		for j < len(src) && (isIdentStart(src[j]) || isDigit(src[j])) {
			j++
		}
		return token{kind: tIdent, text: src[i:j], pos: i}, j - i, nil
	case c == '"' || c == '\'':
		s, n, err := lexString(src, i)
		return token{kind: tString, text: s, pos: i}, n, err
	case isDigit(c) || (c == '-' && i+1 < len(src) && (isDigit(src[i+1]) || src[i+1] == '.')):
		return lexNumber(src, i)
	}
	for _, p := range []string{"->", "=~", "<=", ">=", "!=", "(", ")", "{", "}", ",", ".", "=", "<", ">"} {
		if strings.HasPrefix(src[i:], p) {
			return token{kind: tPunct, text: p, pos: i}, len(p), nil
		}
	}
	r, _ := utf8.DecodeRuneInString(src[i:])
	return token{}, 0, errAt(src, i, "unexpected character %q", r)
}

// lexString reads a quoted string with backslash escapes (\" \' \\ \n \t);
// it returns the unquoted text and the length of the quoted form.
func lexString(src string, i int) (string, int, error) {
	q := src[i]
	var b strings.Builder
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == q:
			return b.String(), j + 1 - i, nil
		case c == '\\':
			if j+1 >= len(src) {
				return "", 0, errAt(src, j, "a backslash ends the query inside a string")
			}
			switch e := src[j+1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '\\', '"', '\'':
				b.WriteByte(e)
			default:
				return "", 0, errAt(src, j, "unknown escape %q in a string (use \\\\, \\\", \\', \\n or \\t)", string([]byte{'\\', e}))
			}
			j += 2
		default:
			b.WriteByte(c)
			j++
		}
	}
	return "", 0, errAt(src, i, "string not closed: a %c is missing", q)
}

// lexNumber reads -?digits[.digits][e[+-]digits].
func lexNumber(src string, i int) (token, int, error) {
	j := i
	if src[j] == '-' {
		j++
	}
	digits := func() {
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	digits()
	if j < len(src) && src[j] == '.' {
		j++
		digits()
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k]) {
			j = k
			digits()
		}
	}
	text := src[i:j]
	if _, err := strconv.ParseFloat(text, 64); err != nil {
		return token{}, 0, errAt(src, i, "bad number %q", text)
	}
	return token{kind: tNumber, text: text, pos: i}, j - i, nil
}
