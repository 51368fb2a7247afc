package profile

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// File is one parsed profile.N.C.T file.
type File struct {
	// Metric is the metric's name: the "Metric Name" attribute if present,
	// else the suffix of the header word, else "Time" (TAU's rule).
	Metric string
	// Timers lists the timer lines in file order.
	Timers []Timer
	// Events lists the user-event lines in file order.
	Events []Event
	// Metadata lists the attributes of the metadata block.
	Metadata []Attribute
}

// Timer is one timer line: a flat or callpath name with its values.
type Timer struct {
	Name                          string
	Calls, Subrs, Exclusive, Incl float64
	Groups                        string
}

// Event is one user-event line.
type Event struct {
	Name  string
	Value drg.CounterValue
}

// Attribute is one metadata attribute; Context is true for attributes
// recorded in a timer context (<timer_context>).
type Attribute struct {
	Name, Value string
	Context     bool
}

// Parse parses the text of one profile file. name is used in error
// messages, which give the line number ("profile.0.0.0:7: ...").
func Parse(data string, name string) (*File, error) {
	return parse(data, name, nil)
}

// parse is Parse with the checked names of the goroutine's previous file
// (nil for none).
func parse(data, name string, checked *checkedNames) (*File, error) {
	p := parser{data: data, name: name, checked: checked}
	f, err := p.parse()
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Decode reads one profile file from rd and parses it.
func Decode(rd io.Reader, name string) (*File, error) {
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return Parse(string(b), name)
}

type parser struct {
	data string
	pos  int
	line int
	name string
	// checked, when not nil, holds the names and groups of the timers of
	// the previous file the same goroutine parsed, already checked with
	// drg.CheckName, by position (see checkedNames).
	checked *checkedNames
}

// checkedNames remembers, by position, the timer names and group strings
// of the last file one reading goroutine parsed. The files of a trial list
// the same timers in mostly the same order, so a name equal to the one at
// its position there (a memory compare) need not be checked for NUL bytes
// and UTF-8 again.
type checkedNames struct {
	names, groups []string
}

// check checks a timer's name and groups with drg.CheckName unless c
// (which may be nil) saw them at position i, and remembers them there.
func (c *checkedNames) check(i int, name, groups string) error {
	if c == nil || i >= len(c.names) || c.names[i] != name {
		if err := drg.CheckLongName("timer name", name); err != nil {
			return err
		}
	}
	if c == nil || i >= len(c.groups) || c.groups[i] != groups {
		if err := drg.CheckName("group", groups); err != nil {
			return err
		}
	}
	if c != nil {
		if i < len(c.names) {
			c.names[i], c.groups[i] = name, groups
		} else if i == len(c.names) {
			c.names, c.groups = append(c.names, name), append(c.groups, groups)
		}
	}
	return nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// next returns the next line without its end of line, and false at the end.
func (p *parser) next() (string, bool) {
	if p.pos >= len(p.data) {
		return "", false
	}
	p.line++
	rest := p.data[p.pos:]
	i := strings.IndexByte(rest, '\n')
	var l string
	if i < 0 {
		l, p.pos = rest, len(p.data)
	} else {
		l, p.pos = rest[:i], p.pos+i+1
	}
	return strings.TrimSuffix(l, "\r"), true
}

// parse reads the whole file: the header, the column header with the
// metadata, the timer lines, the aggregates line and the user events.
func (p *parser) parse() (*File, error) {
	f := &File{}
	count, err := p.header(f)
	if err != nil {
		return nil, err
	}
	if err := p.columnHeader(f); err != nil {
		return nil, err
	}
	if f.Metric == "" {
		f.Metric = "Time"
	}
	if err := p.timers(f, count); err != nil {
		return nil, err
	}
	if err := p.aggregates(count); err != nil {
		return nil, err
	}
	if err := p.userEvents(f); err != nil {
		return nil, err
	}
	return f, nil
}

// header reads "<count> templated_functions[_MULTI_<metric>]", sets the
// metric the word names, and returns the count of timer lines.
func (p *parser) header(f *File) (int, error) {
	head, ok := p.next()
	if !ok {
		return 0, p.errorf("empty file")
	}
	if i := binaryByte(head); i >= 0 {
		return 0, p.errorf("binary data, not a TAU profile (byte %d is 0x%02x)", i+1, head[i])
	}
	countText, word, _ := strings.Cut(strings.TrimSpace(head), " ")
	count, err := strconv.Atoi(countText)
	if err != nil || count < 0 {
		return 0, p.errorf("header %q: want \"<count> templated_functions...\"", clip(head))
	}
	if !strings.HasPrefix(word, "templated_functions") {
		return 0, p.errorf("header %q: not a TAU profile", clip(head))
	}
	switch {
	case strings.HasPrefix(word, "templated_functions_MULTI_"):
		f.Metric = strings.TrimPrefix(word, "templated_functions_MULTI_")
	case word == "templated_functions_hw_counters":
		f.Metric = "Hardware Counter"
	}
	if count > len(p.data)/8 {
		return 0, p.errorf("header announces %d timers, more than the file can hold", count)
	}
	return count, nil
}

// columnHeader reads the "# Name Calls ..." line and the metadata block
// that may follow it on the same line (whose Metric Name overrides the
// header's metric).
func (p *parser) columnHeader(f *File) error {
	colhdr, ok := p.next()
	if !ok {
		return p.errorf("file ends before the column header")
	}
	if !strings.HasPrefix(colhdr, "# Name") {
		return p.errorf("want the column header \"# Name Calls Subrs Excl Incl ...\", got %q", clip(colhdr))
	}
	i := strings.Index(colhdr, "<metadata>")
	if i < 0 {
		return nil
	}
	j := strings.LastIndex(colhdr, "</metadata>")
	if j < i {
		return p.errorf("metadata block has no </metadata>")
	}
	attrs, err := parseMetadata(colhdr[i : j+len("</metadata>")])
	if err != nil {
		return p.errorf("metadata: %v", err)
	}
	f.Metadata = attrs
	for _, a := range attrs {
		if a.Name == drg.MetricNameKey && a.Value != "" {
			f.Metric = a.Value
		}
	}
	return nil
}

// timers reads count timer lines.
func (p *parser) timers(f *File, count int) error {
	f.Timers = make([]Timer, 0, count)
	for i := 0; i < count; i++ {
		l, ok := p.next()
		if !ok {
			return p.errorf("file ends after %d of %d timer lines", i, count)
		}
		t, err := parseTimer(l)
		if err == nil {
			if err = p.checked.check(i, t.Name, t.Groups); err != nil {
				err = fmt.Errorf("timer %q: %v", clip(t.Name), err)
			}
		}
		if err != nil {
			return p.errorf("%v", err)
		}
		f.Timers = append(f.Timers, t)
	}
	return nil
}

// aggregates reads the "0 aggregates" line after the count timer lines.
func (p *parser) aggregates(count int) error {
	l, ok := p.next()
	if !ok {
		return p.errorf("file ends before the \"aggregates\" line (the header announces %d timers)", count)
	}
	n, word, _ := strings.Cut(strings.TrimSpace(l), " ")
	if word != "aggregates" {
		return p.errorf("want \"<n> aggregates\" after %d timer lines, got %q", count, clip(l))
	}
	if a, err := strconv.Atoi(n); err != nil || a != 0 {
		// TAU has written "0 aggregates" since 2.x; aggregates are not supported.
		return p.errorf("%q: only \"0 aggregates\" is supported", clip(l))
	}
	return nil
}

// userEvents reads the optional "<n> userevents" section: the file may
// end (or hold a blank line) right after the aggregates.
func (p *parser) userEvents(f *File) error {
	l, ok := p.next()
	if !ok || strings.TrimSpace(l) == "" {
		return nil
	}
	n, word, _ := strings.Cut(strings.TrimSpace(l), " ")
	if word != "userevents" {
		return p.errorf("want \"<n> userevents\", got %q", clip(l))
	}
	m, err := strconv.Atoi(n)
	if err != nil || m < 0 || m > len(p.data)/8 {
		return p.errorf("bad user-event count %q", n)
	}
	if m == 0 {
		return nil
	}
	if l, ok = p.next(); !ok || !strings.HasPrefix(l, "# eventname") {
		return p.errorf("want the user-event header \"# eventname numevents max min mean sumsqr\"")
	}
	f.Events = make([]Event, 0, m)
	for i := 0; i < m; i++ {
		l, ok := p.next()
		if !ok {
			return p.errorf("file ends after %d of %d user-event lines", i, m)
		}
		e, err := parseEvent(l)
		if err != nil {
			return p.errorf("%v", err)
		}
		f.Events = append(f.Events, e)
	}
	return nil
}

// parseTimer reads `"NAME" calls subrs excl incl profcalls GROUP="G"`; the
// caller checks the name and groups (checkedNames.check). TAU
// does not escape quotes in names, so the name ends at the last quote before
// the numbers; old files carry an extra number before GROUP, which is
// ignored, as are profcalls.
func parseTimer(l string) (Timer, error) {
	var t Timer
	g := lastGroup(l)
	if g < 0 || !strings.HasPrefix(l, `"`) {
		return t, fmt.Errorf("timer line %q: want \"NAME\" calls subrs excl incl profcalls GROUP=\"...\"", clip(l))
	}
	groups := l[g+len(` GROUP="`):]
	end := strings.LastIndexByte(groups, '"')
	if end < 0 {
		return t, fmt.Errorf("timer line %q: GROUP has no closing quote", clip(l))
	}
	t.Groups = groups[:end]
	head := l[:g]
	q := strings.LastIndexByte(head, '"')
	if q <= 0 {
		return t, fmt.Errorf("timer line %q: name has no closing quote", clip(l))
	}
	t.Name = head[1:q]
	var nums [4]float64
	if err := parseNumbers(head[q+1:], nums[:], "calls subrs excl incl"); err != nil {
		return t, fmt.Errorf("timer %q: %v", clip(t.Name), err)
	}
	t.Calls, t.Subrs, t.Exclusive, t.Incl = nums[0], nums[1], nums[2], nums[3]
	if t.Calls < 0 || t.Subrs < 0 {
		return t, fmt.Errorf("timer %q: negative call count", clip(t.Name))
	}
	return t, nil
}

// lastGroup returns the index of the last ` GROUP="` in l, or -1. It looks
// for the '=' from the end, which in a timer line is almost always the
// group's, instead of strings.LastIndex's search for the whole pattern.
func lastGroup(l string) int {
	const pat = ` GROUP="`
	for end := len(l); ; {
		i := strings.LastIndexByte(l[:end], '=')
		if i < 0 {
			return -1
		}
		if start := i - 6; start >= 0 && i+2 <= len(l) && l[start:i+2] == pat {
			return start
		}
		end = i
	}
}

// parseEvent reads `"NAME" numevents max min mean sumsqr`.
func parseEvent(l string) (Event, error) {
	var e Event
	q := strings.LastIndexByte(l, '"')
	if q <= 0 || !strings.HasPrefix(l, `"`) {
		return e, fmt.Errorf("user-event line %q: want \"NAME\" numevents max min mean sumsqr", clip(l))
	}
	e.Name = l[1:q]
	var nums [5]float64
	if err := parseNumbers(l[q+1:], nums[:], "numevents max min mean sumsqr"); err != nil {
		return e, fmt.Errorf("user event %q: %v", clip(e.Name), err)
	}
	if nums[0] < 0 {
		return e, fmt.Errorf("user event %q: negative number of events", clip(e.Name))
	}
	if err := drg.CheckLongName("user event name", e.Name); err != nil {
		return e, fmt.Errorf("user event %q: %v", clip(e.Name), err)
	}
	e.Value = drg.CounterValue{NumEvents: nums[0], Max: nums[1], Min: nums[2], Mean: nums[3], SumSquares: nums[4]}
	return e, nil
}

// parseNumbers reads len(out) blank-separated numbers from the start of s
// (more may follow and are ignored). Every number must be finite.
func parseNumbers(s string, out []float64, names string) error {
	for i := range out {
		k := 0
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		s = s[k:]
		j := 0
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j == 0 {
			return fmt.Errorf("want %d numbers (%s), found %d", len(out), names, i)
		}
		v, ok := parseDecimal(s[:j])
		if !ok {
			var err error
			v, err = strconv.ParseFloat(s[:j], 64)
			if errors.Is(err, strconv.ErrRange) {
				return fmt.Errorf("number %d (%s): %q is out of the range of a double", i+1, strings.Fields(names)[i], clip(s[:j]))
			}
			if err != nil {
				return fmt.Errorf("number %d (%s): %q is not a number", i+1, strings.Fields(names)[i], clip(s[:j]))
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("number %d (%s) is %s", i+1, strings.Fields(names)[i], s[:j])
			}
		}
		if math.Abs(v) > drg.MaxValue {
			return fmt.Errorf("number %d (%s): %q is %w (±%g)", i+1, strings.Fields(names)[i], clip(s[:j]), drg.ErrValueRange, drg.MaxValue)
		}
		out[i] = v
		s = s[j:]
	}
	return nil
}

// parseDecimal reads the forms TAU writes numbers in ("1234", "2341.58",
// "1.368259E+06", an optional leading minus) without strconv.ParseFloat's
// general scanner, and reports false for anything else (ParseFloat then
// decides). It takes Clinger's exact fast path only: a mantissa of at most
// 2^53 scaled by 10^e with |e| ≤ 22, where one float64 multiplication or
// division of two exact values is correctly rounded; so every value it
// returns is bit for bit the one ParseFloat gives.
func parseDecimal(tok string) (float64, bool) {
	i, neg := 0, false
	if i < len(tok) && tok[i] == '-' {
		neg, i = true, 1
	}
	var mant uint64
	exp, digits := 0, 0
	for ; i < len(tok) && tok[i]-'0' <= 9; i++ {
		mant = mant*10 + uint64(tok[i]-'0')
		digits++
		if mant > 1<<53 {
			return 0, false
		}
	}
	if i < len(tok) && tok[i] == '.' {
		for i++; i < len(tok) && tok[i]-'0' <= 9; i++ {
			mant = mant*10 + uint64(tok[i]-'0')
			digits++
			exp--
			if mant > 1<<53 {
				return 0, false
			}
		}
	}
	if digits == 0 {
		return 0, false
	}
	if i < len(tok) && (tok[i] == 'E' || tok[i] == 'e') {
		i++
		esign := 1
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			if tok[i] == '-' {
				esign = -1
			}
			i++
		}
		e, edigits := 0, 0
		for ; i < len(tok) && tok[i]-'0' <= 9 && edigits < 4; i++ {
			e = e*10 + int(tok[i]-'0')
			edigits++
		}
		if edigits == 0 {
			return 0, false
		}
		exp += esign * e
	}
	if i != len(tok) {
		return 0, false
	}
	v := float64(mant)
	switch {
	case exp == 0:
	case exp > 0 && exp <= 22:
		v *= pow10[exp]
	case exp < 0 && exp >= -22:
		v /= pow10[-exp]
	default:
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseMetadata reads TAU's one-line metadata block:
// <metadata><attribute><name>N</name><value>V</value></attribute>...</metadata>.
// A context attribute also carries <timer_context>, <call_number> and
// <timestamp>. A structured value (nested <array_element> or <attribute>
// elements) is flattened to the texts of its elements joined by ", ".
func parseMetadata(block string) ([]Attribute, error) {
	d := xml.NewDecoder(strings.NewReader(block))
	d.Strict = true
	var out []Attribute
	var cur *Attribute
	var field string
	var parts []string
	var direct strings.Builder
	depth := 0 // depth inside <value>
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			switch {
			case depth > 0:
				depth++
			case tk.Name.Local == "attribute" && cur == nil:
				out = append(out, Attribute{})
				cur = &out[len(out)-1]
			case cur != nil && tk.Name.Local == "value":
				depth = 1
				parts = parts[:0]
				direct.Reset()
			case cur != nil:
				field = tk.Name.Local
				if field == "timer_context" {
					cur.Context = true
				}
			}
		case xml.EndElement:
			switch {
			case depth > 1:
				depth--
			case depth == 1:
				depth = 0
				if len(parts) > 0 {
					cur.Value = strings.Join(parts, ", ")
				} else {
					cur.Value = strings.TrimSpace(direct.String())
				}
			case tk.Name.Local == "attribute" && cur != nil:
				cur.Name = strings.TrimSpace(cur.Name)
				cur = nil
			default:
				field = ""
			}
		case xml.CharData:
			switch {
			case depth == 1:
				direct.Write(tk)
			case depth > 1:
				if s := strings.TrimSpace(string(tk)); s != "" {
					parts = append(parts, s)
				}
			case cur != nil && field == "name":
				cur.Name += string(tk)
			}
		}
	}
}

// binaryByte returns the index of the first byte of s that no text file
// holds (a control character other than tab and carriage return, or a byte
// that is not UTF-8), or -1.
func binaryByte(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x20 && c != '\t' && c != '\r' || c == 0x7f {
			return i
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// clip shortens s for an error message to 40 bytes (on a UTF-8 boundary
// when it is UTF-8): enough to find the line, too little to copy out a file
// that is not a profile. Messages quote it with %q, which escapes control
// characters.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	i := n
	for i > n-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
