package overhead

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/drg"
)

// FuzzRules feeds arbitrary files to the rules parser: it must never panic,
// every error must name the file and a line of it, and a file it accepts
// must give rules that classify without panicking and that survive a
// WriteRules/ParseRules round trip unchanged.
func FuzzRules(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", "*.rules"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	var b bytes.Buffer
	_ = WriteRules(&b, DefaultRules())
	f.Add(b.Bytes())
	f.Add([]byte("[[rule]]\naction = override\nid = mpi-p2p\ncategory = 'synchronization' # x\n"))
	f.Add([]byte("[[rule]]\nmatch = \"a\\u00e9\\\"\"\ngroup = 'MPI'\ncategory = computation\n[[rule]]\naction=remove\nid=omp-flush\n"))
	f.Add([]byte("[[rule]]\nmatch = '/(?i)^x+$/'\ncategory = \"additional computation\"\nsub = \"s\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := ParseRules(bytes.NewReader(data), "fuzz.rules", DefaultRules())
		if err != nil {
			msg := err.Error()
			rest, ok := strings.CutPrefix(msg, "fuzz.rules:")
			if !ok {
				t.Fatalf("error without the file name: %v", err)
			}
			n, _, ok := strings.Cut(rest, ":")
			line, convErr := strconv.Atoi(n)
			if !ok || convErr != nil || line < 1 || line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("error without a valid line: %v", err)
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
			if strings.HasPrefix(r.Source, "fuzz.rules:") {
				mine = append(mine, r)
			}
		}
		var out bytes.Buffer
		if err := WriteRules(&out, mine); err != nil {
			t.Fatal(err)
		}
		back, err := ParseRules(&out, "w.rules", nil)
		if err != nil {
			t.Fatalf("written rules do not parse: %v\n%s", err, out.String())
		}
		if !sameRules(mine, back) {
			t.Fatalf("round trip changed the rules")
		}
	})
}
