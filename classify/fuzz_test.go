package classify

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// FuzzRules feeds arbitrary files to the rules parser: it must never panic,
// every error must name the file and a line of it, and a file it accepts
// must give rules that classify without panicking and that survive a
// WriteRules/ParseRules round trip unchanged.
func FuzzRules(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", "*.yaml"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	var b bytes.Buffer
	_ = WriteRules(&b, Default())
	f.Add(b.Bytes())
	f.Add([]byte("rules:\n- action: override\n  id: mpi-p2p\n  category: 'synchronization' # x\n"))
	f.Add([]byte("rules:\n- {match: \"a\\u00e9\", group: /MPI/, category: computation}\n- {action: remove, id: omp-flush}\n"))
	f.Add([]byte("rules:\n- match: '/(?i)^x+$/'\n  category: additional computation\n  sub: s\n  class: io\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := ParseRules(bytes.NewReader(data), "fuzz.yaml", Default())
		if err != nil {
			msg := err.Error()
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz.yaml" || !strings.HasPrefix(msg, "fuzz.yaml:") {
				t.Fatalf("error without the file name: %v", err)
			}
			if e.Line < 0 || e.Line > yamlLines(data) {
				t.Fatalf("error with a line outside the file: %v", err)
			}
			return
		}
		reg := drg.Region{Name: MatchName(string(data)), Groups: []string{"MPI"}}
		for i := range rules {
			if rules[i].kind == kindUnset {
				t.Fatalf("rule %d not compiled", i)
			}
			rules[i].Matches(&reg)
		}
		// Round trip the rules the file added or changed (the defaults'
		// round trip is TestWriteRulesRoundTrip's; recompiling all of them
		// here would slow the fuzzer down tenfold).
		var mine []Rule
		for _, r := range rules {
			if strings.HasPrefix(r.Source, "fuzz.yaml:") {
				mine = append(mine, r)
			}
		}
		var out bytes.Buffer
		if err := WriteRules(&out, mine); err != nil {
			t.Fatal(err)
		}
		back, err := ParseRules(&out, "w.yaml", nil)
		if err != nil {
			t.Fatalf("written rules do not parse: %v\n%s", err, out.String())
		}
		if !sameRules(mine, back) {
			t.Fatalf("round trip changed the rules")
		}
	})
}

// yamlLines is the number of lines of data as YAML counts them: a line
// break is LF, CR LF or a lone CR (so "\r0" has two lines).
func yamlLines(data []byte) int {
	n := 1
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\n':
			n++
		case data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			n++
		}
	}
	return n
}
