package gprof

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxToken is the longest DOT identifier or quoted string read (bytes).
const MaxToken = 1 << 20

// token kinds of the DOT subset read.
const (
	tEOF = iota
	tID  // bare identifier, numeral or quoted string (unquoted)
	tPunct
)

type token struct {
	kind int
	text string
	line int
}

// lexer splits a DOT file into tokens, streaming it.
type lexer struct {
	r    *bufio.Reader
	line int
	peek *token
}

func newLexer(r io.Reader) *lexer { return &lexer{r: bufio.NewReader(r), line: 1} }

func (l *lexer) errf(format string, args ...any) error {
	return &Error{Line: l.line, Offset: -1, Err: fmt.Errorf(format, args...)}
}

func (l *lexer) next() (token, error) {
	if l.peek != nil {
		t := *l.peek
		l.peek = nil
		return t, nil
	}
	return l.scan()
}

func (l *lexer) unread(t token) { l.peek = &t }

func (l *lexer) readByte() (byte, error) {
	c, err := l.r.ReadByte()
	if c == '\n' && err == nil {
		l.line++
	}
	return c, err
}

func (l *lexer) unreadByte(c byte) {
	_ = l.r.UnreadByte()
	if c == '\n' {
		l.line--
	}
}

func (l *lexer) scan() (token, error) {
	for {
		c, err := l.readByte()
		if err == io.EOF {
			return token{kind: tEOF, line: l.line}, nil
		}
		if err != nil {
			return token{}, err
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			continue
		case c == '#':
			if err := l.skipLine(); err != nil {
				return token{}, err
			}
			continue
		case c == '/':
			if ok, err := l.comment(); err != nil || ok {
				if err != nil {
					return token{}, err
				}
				continue
			}
			return token{}, l.errf("unexpected '/'")
		case c == '"':
			return l.quoted()
		case c == '-':
			if n, err := l.readByte(); err == nil && (n == '>' || n == '-') {
				return token{kind: tPunct, text: "-" + string(n), line: l.line}, nil
			} else if err == nil {
				l.unreadByte(n)
			}
			return l.bare(c)
		case strings.IndexByte("{}[]=;,:", c) >= 0:
			return token{kind: tPunct, text: string(c), line: l.line}, nil
		case c == '<':
			return token{}, l.errf("HTML-like labels (<...>) are not read")
		case isIDByte(c):
			return l.bare(c)
		default:
			return token{}, l.errf("unexpected character %q", c)
		}
	}
}

func isIDByte(c byte) bool {
	return c == '_' || c == '.' || c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func (l *lexer) skipLine() error {
	for {
		c, err := l.readByte()
		if err == io.EOF || c == '\n' {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// comment skips a // or /* */ comment after its '/'; false when the '/'
// starts neither.
func (l *lexer) comment() (bool, error) {
	c, err := l.readByte()
	if err != nil {
		return false, nil
	}
	switch c {
	case '/':
		return true, l.skipLine()
	case '*':
		start := l.line
		prev := byte(0)
		for {
			c, err := l.readByte()
			if err != nil {
				return false, &Error{Line: start, Offset: -1, Err: errors.New("comment not closed")}
			}
			if prev == '*' && c == '/' {
				return true, nil
			}
			prev = c
		}
	}
	l.unreadByte(c)
	return false, nil
}

// quoted reads a quoted string after its '"'. As in Graphviz, only \" is an
// escape (the backslash is dropped); "\n" and other backslash pairs stay as
// they are, and a backslash before a newline continues the line.
func (l *lexer) quoted() (token, error) {
	start := l.line
	var sb strings.Builder
	for {
		c, err := l.readByte()
		if err != nil {
			return token{}, &Error{Line: start, Offset: -1, Err: errors.New("quoted string not closed")}
		}
		if sb.Len() > MaxToken {
			return token{}, l.errf("quoted string longer than %d bytes", MaxToken)
		}
		switch c {
		case '"':
			return token{kind: tID, text: sb.String(), line: start}, nil
		case '\\':
			n, err := l.readByte()
			if err != nil {
				return token{}, &Error{Line: start, Offset: -1, Err: errors.New("quoted string not closed")}
			}
			switch n {
			case '"':
				sb.WriteByte('"')
			case '\n':
			default:
				sb.WriteByte('\\')
				sb.WriteByte(n)
			}
		default:
			sb.WriteByte(c)
		}
	}
}

func (l *lexer) bare(first byte) (token, error) {
	var sb strings.Builder
	sb.WriteByte(first)
	for {
		c, err := l.readByte()
		if err != nil {
			break
		}
		if !isIDByte(c) {
			l.unreadByte(c)
			break
		}
		if sb.Len() > MaxToken {
			return token{}, l.errf("identifier longer than %d bytes", MaxToken)
		}
		sb.WriteByte(c)
	}
	return token{kind: tID, text: sb.String(), line: l.line}, nil
}
