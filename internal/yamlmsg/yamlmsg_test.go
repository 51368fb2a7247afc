package yamlmsg

import (
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
