package callquery

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocExamplesParse parses every query of docs/query.md and of the
// README: the indented examples and the --query '...' arguments. The one
// example of an error (STARTS without WITH) must fail at column 38.
func TestDocExamplesParse(t *testing.T) {
	quoted := regexp.MustCompile(`--query '([^']*)'`)
	n := 0
	for _, doc := range []string{"../docs/query.md", "../README.md"} {
		b, err := os.ReadFile(filepath.FromSlash(doc))
		if err != nil {
			t.Fatal(err)
		}
		var qs []string
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "    ") && strings.Contains(line, "MATCH") && !strings.Contains(line, "--query") {
				qs = append(qs, strings.TrimSpace(line))
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(string(b), -1) {
			qs = append(qs, m[1])
		}
		for _, q := range qs {
			n++
			_, err := Parse(q)
			if strings.Contains(q, `STARTS "`) {
				if err == nil || !strings.HasPrefix(err.Error(), "column 38:") {
					t.Errorf("%s: %v, want the error at column 38", q, err)
				}
				continue
			}
			if err != nil && !strings.Contains(q, "...") {
				t.Errorf("%s: %s: %v", doc, q, err)
			}
		}
	}
	if n < 8 {
		t.Errorf("only %d queries found in the docs", n)
	}
}
