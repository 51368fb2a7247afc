package yamlmsg

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// SyntaxError is a YAML syntax error with the editor line it names (0 when
// the parser names none) and a message "not valid YAML: ...".
type SyntaxError struct {
	Line int
	Msg  string
}

// Unmarshal parses data into doc. Every line in doc's nodes and in the
// error is an editor line: YAML 1.1 (and so the parser) also breaks lines at
// NEL (U+0085), LS (U+2028) and PS (U+2029), which editors and grep do not,
// so a file holding one would otherwise get line numbers past its end. A
// line past the file's end (an "unexpected end of stream" after a final
// break) is clamped to its last line.
func Unmarshal(data []byte, doc *yaml.Node) *SyntaxError {
	m := newLineMap(data)
	if err := yaml.Unmarshal(data, doc); err != nil {
		line, msg := Syntax(err)
		return &SyntaxError{Line: m.editor(line), Msg: msg}
	}
	m.remap(doc)
	return nil
}

// lineMap maps the parser's line numbers to editor lines: editorOf[k-1] is
// the editor line of the parser's line k.
type lineMap struct {
	editorOf []int
	last     int // the file's last editor line
}

// newLineMap scans data once for line breaks: LF, CR LF and a lone CR
// break both kinds of line; NEL, LS and PS break only the parser's.
func newLineMap(data []byte) lineMap {
	m := lineMap{editorOf: []int{1}, last: 1}
	if !bytes.Contains(data, []byte("\xc2\x85")) && !bytes.Contains(data, []byte("\xe2\x80\xa8")) && !bytes.Contains(data, []byte("\xe2\x80\xa9")) {
		m.editorOf = nil // identity but for the clamp
	}
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\n', data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			m.last++
			if m.editorOf != nil {
				m.editorOf = append(m.editorOf, m.last)
			}
		case m.editorOf != nil && data[i] == 0xc2 && i+1 < len(data) && data[i+1] == 0x85,
			m.editorOf != nil && data[i] == 0xe2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9):
			m.editorOf = append(m.editorOf, m.last)
		}
	}
	return m
}

// editor is the editor line of the parser's line k (0 stays 0).
func (m lineMap) editor(k int) int {
	switch {
	case k <= 0:
		return 0
	case m.editorOf != nil && k <= len(m.editorOf):
		return m.editorOf[k-1]
	}
	return min(k, m.last)
}

// remap rewrites the lines of n and of every node under it.
func (m lineMap) remap(n *yaml.Node) {
	if n == nil {
		return
	}
	n.Line = m.editor(n.Line)
	for _, c := range n.Content {
		m.remap(c)
	}
}
