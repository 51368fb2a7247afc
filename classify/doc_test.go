package classify

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateDoc = flag.Bool("update-doc", false, "rewrite the default rule table in doc.go")

// docTable renders the default rules as doc.go holds them: each line of
// RulesText indented as a doc-comment code block.
func docTable() string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(RulesText(Default()), "\n"), "\n") {
		b.WriteString("//\t" + line + "\n")
	}
	return b.String()
}

// TestDocRuleTable checks that doc.go shows the current default rules (run
// with -update-doc to rewrite it).
func TestDocRuleTable(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	const start = "// TestDocRuleTable keeps this copy current):\n//\n"
	const end = "//\tEND OF RULE TABLE\n"
	s := string(src)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("doc.go: rule table markers not found")
	}
	i += len(start)
	if got, want := s[i:j], docTable(); got != want {
		if *updateDoc {
			if err := os.WriteFile("doc.go", []byte(s[:i]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("doc.go's default rule table is stale; run go test ./classify -run TestDocRuleTable -update-doc")
	}
}
