package yamlmsg

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSyntaxAndKind(t *testing.T) {
	var n yaml.Node
	err := yaml.Unmarshal([]byte("a: 1\nb: [\n"), &n)
	if err == nil {
		t.Fatal("want a syntax error")
	}
	// The list opened on line 2 is never closed.
	if line, msg := Syntax(err); line != 2 || msg != "not valid YAML: did not find expected node content" {
		t.Errorf("Syntax = %d, %q", line, msg)
	}
	if err := yaml.Unmarshal([]byte("x: [1]\n"), &n); err != nil {
		t.Fatal(err)
	}
	root := n.Content[0]
	if KindName(root) != "mapping" || KindName(root.Content[1]) != "list" || KindName(root.Content[0]) != "single value" {
		t.Errorf("kinds %s %s %s", KindName(root), KindName(root.Content[1]), KindName(root.Content[0]))
	}
}

// TestUnmarshalEditorLines checks that lines count LF, CR LF and lone CR
// breaks only, as an editor does: the parser also breaks at NEL, LS and
// PS, and an unterminated quote at the end of a one-line file was reported
// on line 2 of a 1-line file.
func TestUnmarshalEditorLines(t *testing.T) {
	for _, tc := range []struct {
		data string
		line int
	}{
		{"\"a\u0085", 1},             // parser: line 2
		{"'a\u2028", 1},              // parser: line 2
		{"a: \"x\u2029y\"\nb: [", 2}, // parser: line 3
		{"'a\r", 2},                  // a lone CR is a break
		{"a: 1\r\nb: [\r\n", 2},
		{"\"", 0}, // the parser names no line
	} {
		var n yaml.Node
		e := Unmarshal([]byte(tc.data), &n)
		if e == nil || e.Line != tc.line || !strings.HasPrefix(e.Msg, "not valid YAML: ") {
			t.Errorf("Unmarshal(%q) = %+v, want line %d", tc.data, e, tc.line)
		}
	}
	var n yaml.Node
	if e := Unmarshal([]byte("a: \"k\u0085l\"\r\nz: \"a\u2028b\"\ny: 2\n"), &n); e != nil {
		t.Fatal(e.Msg)
	}
	root := n.Content[0]
	// Parser lines: a 1, z 3, y 5; editor lines 1, 2, 3.
	if got := [3]int{root.Content[0].Line, root.Content[2].Line, root.Content[4].Line}; got != [3]int{1, 2, 3} {
		t.Errorf("node lines %v, want [1 2 3]", got)
	}
}
