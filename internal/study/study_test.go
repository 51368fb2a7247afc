package study

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

func TestParseResolvesPathsAndParams(t *testing.T) {
	text := `title: t
database: sqlite:db/taudb.db
trials:
  - name: a
    path: runs/a
    application: app
  - name: b
  - where: application == "app"
  - view: nightly
analyses:
  - run: speedup
    trials: [a, b]
    with:
      metric: TIME
      --aggregate: mean
      regions: [x, y]
      short-names: true
  - run: imbalance
    trials: a
report:
  out: /abs/rep
`
	s, err := Parse("s.yaml", "/home/me/study", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Database != "sqlite:/home/me/study/db/taudb.db" || s.Trials[0].Path != "/home/me/study/runs/a" || s.Report.Out != "/abs/rep" {
		t.Errorf("paths: %q %q %q", s.Database, s.Trials[0].Path, s.Report.Out)
	}
	want := []Param{{14, "metric", "TIME"}, {15, "aggregate", "mean"}, {16, "regions", "x,y"}, {17, "short-names", "true"}}
	if !reflect.DeepEqual(s.Analyses[0].With, want) {
		t.Errorf("with %+v", s.Analyses[0].With)
	}
	if !reflect.DeepEqual(s.Analyses[1].Trials, []string{"a"}) || s.Analyses[1].Line != 18 {
		t.Errorf("second analysis %+v", s.Analyses[1])
	}
	if s.Trials[2].Where != `application == "app"` || s.Trials[3].View != "nightly" || s.Trials[1].Line != 7 {
		t.Errorf("trials %+v", s.Trials)
	}
}

func TestValidate(t *testing.T) {
	s, err := Parse("s.yaml", t.TempDir(), []byte("analyses:\n  - run: speedup\n    with: {x: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	check := func(run string, p Param) error { return errors.New("no flag " + p.Name) }
	err = s.Validate([]string{"speedup"}, nil, check)
	var se *Error
	if !errors.As(err, &se) || se.Line != 3 || err.Error() != "s.yaml:3: speedup: no flag x" {
		t.Errorf("%v", err)
	}
}

func TestExampleStudiesParseAndValidate(t *testing.T) {
	// The studies name the demo's generated trials, which a fresh clone
	// does not have until something writes them.
	if err := synth.WriteDemo(filepath.Join(realdata.Root(), "testdata", "generated")); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(realdata.Root(), "scripts", "*.yaml"))
	if len(files) < 3 {
		t.Fatalf("example studies: %v", files)
	}
	for _, f := range files {
		s, err := Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate([]string{"speedup", "scalability", "overhead", "imbalance", "cluster"}, []string{"profile", "ppk", "snapshot"}, nil); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestReadRefusesHugeFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(p, make([]byte, MaxSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(p); err == nil || err.Error() != p+": larger than 1048576 bytes: not a study file" {
		t.Errorf("%v", err)
	}
}

// FuzzParse checks that no input makes Parse panic, and that every error
// is an *Error naming the file.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(realdata.Root(), "scripts", "*.yaml"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("analyses: [{run: x, with: {a: [1, 2]}}]\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("f.yaml", "/d", data)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		_ = s.Validate([]string{"speedup"}, []string{"profile"}, nil)
	})
}
