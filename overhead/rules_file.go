package overhead

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A rules file changes a list of rules (normally DefaultRules). It is a
// sequence of [[rule]] blocks of key = value lines; blank lines and
// comments (from "#" to the end of a line, outside strings) are ignored:
//
//	# Count MPI_Waitall as point-to-point communication, not as a wait.
//	[[rule]]
//	match    = "MPI_Waitall"
//	category = "data movement"
//	sub      = "MPI point-to-point"
//
//	# Drop the default rule that makes MPI_Comm_rank additional computation.
//	[[rule]]
//	id     = "unit-identification-mpi"
//	action = "remove"
//
// Keys (each at most once per block):
//
//	action    "add" (the default), "override" or "remove"
//	id        the rule's name; for override and remove, the id of the
//	          rule to change
//	match     the name pattern: exact ("MPI_Send", a trailing "()" does
//	          not matter), prefix ("MPI_File_*") or a Go regular
//	          expression between slashes ("/^MPI_I?send$/"); see Rule
//	group     a TAU group ("MPI"), compared without regard to case
//	category  "data movement", "synchronization", "control of
//	          parallelism", "additional computation" or "computation"
//	          (case, "_" and "-" do not matter)
//	sub       the sub-category; default "other" (none for computation)
//	note      free text shown in the rule table
//
// Values are strings: "double-quoted" with the escapes \" \\ \b \t \n \f \r
// \uXXXX \UXXXXXXXX, 'single-quoted' with no escapes (handy for regular
// expressions), or a bare word without blanks, quotes or "#". A file whose
// values are all quoted is valid TOML (an array of tables named rule).
//
// Actions:
//
//	add       a new rule (needs category, and match or group); the added
//	          rules come before the rules being changed, in file order,
//	          so they win over them (the first matching rule wins)
//	override  changes the rule named by id (or, without id, the rule with
//	          the same match and group) in place, keeping its position:
//	          the keys given replace the rule's values
//	remove    deletes the rule named by id (or with the same match and
//	          group); no other key is allowed
//
// Every error names the file and line: "site.rules:12: unknown key
// "catgory" (want action, id, match, group, category, sub, note)".

// ruleKeys lists the keys of a [[rule]] block, in the order of error
// messages.
var ruleKeys = []string{"action", "id", "match", "group", "category", "sub", "note"}

// maxLine bounds the length of a line of a rules file.
const maxLine = 1 << 20

// LoadRules reads the rules file at path and applies it to DefaultRules.
func LoadRules(path string) ([]Rule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseRules(f, path, DefaultRules())
}

// ParseRules reads a rules file from r (name is the file name used in
// errors) and applies it to base: the result is the file's added rules in
// file order followed by base with the file's overrides and removals
// applied. base is not modified. On error nothing is returned.
func ParseRules(r io.Reader, name string, base []Rule) ([]Rule, error) {
	blocks, err := parseBlocks(r, name)
	if err != nil {
		return nil, err
	}
	rest := make([]Rule, len(base))
	copy(rest, base)
	removed := make([]bool, len(rest))
	var added []Rule
	ids := map[string]string{}
	for i, r := range rest {
		if r.ID != "" {
			ids[r.ID] = sourceOf(r, i)
		}
	}
	for _, b := range blocks {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, b.line, fmt.Sprintf(format, args...))
		}
		action := "add"
		if v, ok := b.vals["action"]; ok {
			action = strings.ToLower(strings.TrimSpace(v.s))
		}
		switch action {
		case "add":
			rule := Rule{Source: fmt.Sprintf("%s:%d", name, b.line)}
			rule.ID = b.get("id")
			rule.Match = b.get("match")
			rule.Group = b.get("group")
			rule.Sub = b.get("sub")
			rule.Note = b.get("note")
			cv, ok := b.vals["category"]
			if !ok {
				return nil, fail("rule has no category (want one of %s)", categoryList(ruleCategories))
			}
			c, err := ParseCategory(cv.s)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, cv.line, err)
			}
			if !assignable(c) {
				return nil, fmt.Errorf("%s:%d: %w", name, cv.line, computedError(c))
			}
			rule.Category = c
			if rule.Match == "" && rule.Group == "" {
				return nil, fail("rule has neither match nor group (missing match)")
			}
			if err := rule.compile(); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, b.lineOf("match"), err)
			}
			if rule.ID != "" {
				if prev, dup := ids[rule.ID]; dup {
					return nil, fail("id %q is already used by the rule at %s", rule.ID, prev)
				}
				ids[rule.ID] = rule.Source
			}
			added = append(added, rule)
		case "override", "remove":
			target, err := findTarget(rest, removed, b)
			if err != nil {
				return nil, fail("%s: %v", action, err)
			}
			if action == "remove" {
				for _, k := range []string{"category", "sub", "note"} {
					if v, ok := b.vals[k]; ok {
						return nil, fmt.Errorf("%s:%d: remove takes only id, or match and group; not %s", name, v.line, k)
					}
				}
				removed[target] = true
				if id := rest[target].ID; id != "" {
					delete(ids, id) // a later add may reuse the id
				}
				continue
			}
			rule := rest[target]
			rule.Source = fmt.Sprintf("%s:%d", name, b.line)
			if cv, ok := b.vals["category"]; ok {
				c, err := ParseCategory(cv.s)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", name, cv.line, err)
				}
				if !assignable(c) {
					return nil, fmt.Errorf("%s:%d: %w", name, cv.line, computedError(c))
				}
				if c != rule.Category && !b.has("sub") {
					rule.Sub = "" // the old sub belongs to the old category
				}
				rule.Category = c
			}
			if _, ok := b.vals["id"]; ok {
				// Named by id: match and group may be replaced too.
				if v, ok := b.vals["match"]; ok {
					rule.Match = v.s
				}
				if v, ok := b.vals["group"]; ok {
					rule.Group = v.s
				}
			}
			if v, ok := b.vals["sub"]; ok {
				rule.Sub = v.s
			}
			if v, ok := b.vals["note"]; ok {
				rule.Note = v.s
			}
			if rule.Match == "" && rule.Group == "" {
				return nil, fail("rule has neither match nor group (missing match)")
			}
			if err := rule.compile(); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, b.lineOf("match"), err)
			}
			rest[target] = rule
		default:
			return nil, fmt.Errorf("%s:%d: unknown action %q (want add, override or remove)", name, b.vals["action"].line, action)
		}
	}
	out := added
	for i, r := range rest {
		if !removed[i] {
			out = append(out, r)
		}
	}
	if out == nil {
		out = []Rule{}
	}
	return out, nil
}

func sourceOf(r Rule, i int) string {
	if r.Source != "" {
		return r.Source
	}
	return "rule " + strconv.Itoa(i+1)
}

// findTarget finds the rule an override or remove block names: by id when
// the block has one, else by equal match and group.
func findTarget(rules []Rule, removed []bool, b block) (int, error) {
	if id, ok := b.vals["id"]; ok {
		for i, r := range rules {
			if !removed[i] && r.ID == id.s {
				return i, nil
			}
		}
		return -1, fmt.Errorf("no rule has id %q (see the rule table: RulesTable(DefaultRules()))", id.s)
	}
	m, g := b.get("match"), b.get("group")
	if m == "" && g == "" {
		return -1, fmt.Errorf("name the rule to change by id, or by match and group (missing match)")
	}
	for i, r := range rules {
		if !removed[i] && r.Match == m && strings.EqualFold(r.Group, g) {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no rule has match %q and group %q", m, g)
}

// block is one [[rule]] block of a rules file.
type block struct {
	line int
	vals map[string]value
}

type value struct {
	s    string
	line int
}

func (b block) get(k string) string { return b.vals[k].s }

func (b block) has(k string) bool { _, ok := b.vals[k]; return ok }

// lineOf returns the line of the first of keys the block has, or the
// block's line.
func (b block) lineOf(keys ...string) int {
	for _, k := range keys {
		if v, ok := b.vals[k]; ok {
			return v.line
		}
	}
	return b.line
}

// parseBlocks splits a rules file into blocks, checking the syntax.
func parseBlocks(r io.Reader, name string) ([]block, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	var blocks []block
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if !utf8.Valid(text) {
			return nil, fmt.Errorf("%s:%d: not valid UTF-8", name, line)
		}
		s := strings.TrimRight(string(text), "\r")
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		s = strings.TrimLeft(s, " \t")
		if s == "" || s[0] == '#' {
			continue
		}
		if s[0] == '[' {
			head, rest := s, ""
			if i := strings.Index(s, "]]"); i >= 0 {
				head, rest = s[:i+2], s[i+2:]
			}
			if err := trailer(rest); err != nil || strings.Join(strings.Fields(strings.Trim(head, "[]")), "") != "rule" ||
				!strings.HasPrefix(head, "[[") || !strings.HasSuffix(head, "]]") {
				return nil, fmt.Errorf("%s:%d: unknown section %q (want [[rule]])", name, line, strings.TrimSpace(s))
			}
			blocks = append(blocks, block{line: line, vals: map[string]value{}})
			continue
		}
		key, val, err := keyValue(s)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		if !known(key) {
			return nil, fmt.Errorf("%s:%d: unknown key %q (want %s)", name, line, key, strings.Join(ruleKeys, ", "))
		}
		if len(blocks) == 0 {
			return nil, fmt.Errorf("%s:%d: key %q outside a [[rule]] block (start each rule with a line [[rule]])", name, line, key)
		}
		b := &blocks[len(blocks)-1]
		if prev, dup := b.vals[key]; dup {
			return nil, fmt.Errorf("%s:%d: key %q given twice in one rule (first at line %d)", name, line, key, prev.line)
		}
		b.vals[key] = value{s: val, line: line}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", name, line+1, maxLine)
		}
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return blocks, nil
}

func known(k string) bool {
	for _, x := range ruleKeys {
		if x == k {
			return true
		}
	}
	return false
}

// keyValue reads `key = value [# comment]`.
func keyValue(s string) (string, string, error) {
	eq := strings.IndexByte(s, '=')
	if eq < 0 {
		return "", "", fmt.Errorf("want key = value or [[rule]], got %q", s)
	}
	key := strings.TrimSpace(s[:eq])
	if key == "" {
		return "", "", fmt.Errorf("missing key before '='")
	}
	for _, c := range key {
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "", "", fmt.Errorf("bad key %q (letters, digits, '_' and '-' only)", key)
		}
	}
	rest := strings.TrimLeft(s[eq+1:], " \t")
	if rest == "" || rest[0] == '#' {
		return "", "", fmt.Errorf("key %q has no value", key)
	}
	var val string
	var n int
	var err error
	switch rest[0] {
	case '"':
		val, n, err = basicString(rest)
	case '\'':
		val, n, err = literalString(rest)
	default:
		val, n, err = bareWord(rest)
	}
	if err != nil {
		return "", "", fmt.Errorf("key %q: %v", key, err)
	}
	if err := trailer(rest[n:]); err != nil {
		return "", "", fmt.Errorf("key %q: %v", key, err)
	}
	return key, val, nil
}

// trailer accepts blanks and an optional comment.
func trailer(s string) error {
	s = strings.TrimLeft(s, " \t")
	if s == "" || s[0] == '#' {
		return nil
	}
	return fmt.Errorf("unexpected text %q after the value (quote values that contain blanks or '#')", s)
}

// basicString reads a "double-quoted" string with TOML's escapes and
// returns it and the number of bytes used.
func basicString(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, nil
		case c == '\\':
			if i+1 >= len(s) {
				return "", 0, fmt.Errorf("unterminated string")
			}
			e := s[i+1]
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if i+2+n > len(s) {
					return "", 0, fmt.Errorf("short \\%c escape", e)
				}
				v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(v)) {
					return "", 0, fmt.Errorf("bad escape \\%c%s (want a Unicode scalar value in hex)", e, s[i+2:i+2+n])
				}
				b.WriteRune(rune(v))
				i += 2 + n
				continue
			default:
				return "", 0, fmt.Errorf("unknown escape \\%c in a double-quoted string (use single quotes for regular expressions: '^MPI_\\w+$')", e)
			}
			i += 2
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", 0, fmt.Errorf("control character %#x in a string (write it as an escape)", c)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", 0, fmt.Errorf("unterminated string (missing closing \")")
}

// literalString reads a 'single-quoted' string (no escapes).
func literalString(s string) (string, int, error) {
	end := strings.IndexByte(s[1:], '\'')
	if end < 0 {
		return "", 0, fmt.Errorf("unterminated string (missing closing ')")
	}
	v := s[1 : 1+end]
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return "", 0, fmt.Errorf("control character %#x in a string", c)
		}
	}
	return v, end + 2, nil
}

// bareWord reads an unquoted value: up to a blank or "#".
func bareWord(s string) (string, int, error) {
	n := strings.IndexAny(s, " \t#")
	if n < 0 {
		n = len(s)
	}
	w := s[:n]
	if strings.ContainsAny(w, "\"'") {
		return "", 0, fmt.Errorf("unbalanced quote in %q", w)
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 0x20 || c == 0x7f {
			return "", 0, fmt.Errorf("control character %#x in a value", c)
		}
	}
	return w, n, nil
}

// WriteRules writes rules as a rules file of add blocks (every value
// double-quoted, so the file is also TOML). Parsing it with
// ParseRules(r, name, nil) gives the same rules (Source aside).
func WriteRules(w io.Writer, rules []Rule) error {
	var b bytes.Buffer
	b.WriteString("# taudb-analyze overhead classification rules (first match wins)\n")
	for _, r := range rules {
		b.WriteString("\n[[rule]]\n")
		for _, kv := range [][2]string{{"id", r.ID}, {"match", r.Match}, {"group", r.Group}, {"category", string(r.Category)}, {"sub", r.Sub}, {"note", r.Note}} {
			if kv[1] == "" && kv[0] != "category" {
				continue
			}
			fmt.Fprintf(&b, "%-8s = %s\n", kv[0], quote(kv[1]))
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// quote writes s as a double-quoted string with the escapes basicString
// reads.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
