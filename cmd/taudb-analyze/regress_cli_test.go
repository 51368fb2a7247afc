package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/synth"
)

// saveHistory writes a generated history into the database at url.
func saveHistory(t *testing.T, url string, spec synth.HistorySpec) *synth.History {
	t.Helper()
	h, err := synth.GenerateHistory(spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Init(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tr := range h.Trials {
		if _, err := db.SaveTrial(ctx, tr, store.SaveOptions{Application: spec.OrderKey + "-app"}); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// TestRegressFailOn: a history whose region 2 of 3 got 10% slower at point
// 21 of 28 (the program 4.9% slower, the generator's ground truth) exits 3
// with --fail-on regression --threshold 3% and names the program and the
// point; 0 with a 20% threshold, without --fail-on, and for a history whose
// only change is an improvement; 2 for a bad threshold or order.
func TestRegressFailOn(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		h := saveHistory(t, url, synth.HistorySpec{Points: 28, MinReps: 1, MaxReps: 3, Regions: 3, Noise: 0.01, Seed: 3, OrderKey: "slow",
			Shifts: []synth.Shift{{At: 20, Regions: []int{2}, Size: 0.10}}})
		saveHistory(t, url, synth.HistorySpec{Points: 28, MinReps: 1, MaxReps: 3, Regions: 3, Noise: 0.01, Seed: 4, OrderKey: "fast",
			Shifts: []synth.Shift{{At: 20, Regions: []int{2}, Size: -0.10}}})
		slow := []string{"--db", url, "regress", "--where", `application == "slow-app"`, "--order-by", "meta:slow"}
		r := cli(t, nil, append(slow, "--fail-on", "regression", "--threshold", "3%", "--no-save")...)
		if r.code != 3 || !strings.Contains(r.stderr, "program +4.") || !strings.Contains(r.stderr, "since point 21") {
			t.Errorf("--fail-on regression: exit %d, stderr %q; want 3 and the program +4.9%% since point 21 (truth %+v)", r.code, r.stderr, h.Truth[0])
		}
		if !strings.Contains(r.stdout, "regression") {
			t.Errorf("no summary printed before failing: %q", r.stdout)
		}
		ok(t, nil, append(slow, "--fail-on", "regression", "--threshold", "20%", "--no-save")...)
		ok(t, nil, append(slow, "--no-save")...)
		ok(t, nil, "--db", url, "regress", "--where", `application == "fast-app"`, "--order-by", "meta:fast", "--fail-on", "regression", "--no-save")
		fails(t, 2, "--threshold", append(slow, "--threshold", "three")...)
		fails(t, 2, "--order-by", "--db", url, "regress", "--where", `application == "slow-app"`, "--order-by", "colour")
		fails(t, 2, "--fail-on", append(slow, "--fail-on", "improvement")...)
		fails(t, 2, "--format", "--db", url, "--format", "junit", "trials")
	})
}

// The JUnit XML shape common CI systems read (Ant/Jenkins schema):
// testsuites > testsuite (name, tests, failures, errors) > testcase (name,
// classname) > failure (message, type).
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    *int   `xml:"tests,attr"`
		Failures *int   `xml:"failures,attr"`
		Errors   *int   `xml:"errors,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// TestRegressJUnit: the JUnit report has one testsuite, one testcase per
// series (the program, main and the 3 regions: 5), and failures exactly for
// the program and region 2 (the injected 10% shift), whose counts match
// the attributes; the result is stored and JSON has the changes table.
func TestRegressJUnit(t *testing.T) {
	url := "sqlite:" + t.TempDir() + "/taudb.db"
	h := saveHistory(t, url, synth.HistorySpec{Points: 28, MinReps: 1, MaxReps: 3, Regions: 3, Noise: 0.01, Seed: 3, OrderKey: "slow",
		Shifts: []synth.Shift{{At: 20, Regions: []int{2}, Size: 0.10}}})
	args := []string{"--db", url, "--format", "junit", "regress", "--where", `application == "slow-app"`, "--order-by", "meta:slow", "--threshold", "3%"}
	r := ok(t, nil, args...)
	validateJUnit(t, r.stdout)
	var doc junitDoc
	if err := xml.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("JUnit output does not parse: %v\n%s", err, r.stdout)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	failed := map[string]bool{}
	for _, c := range s.Cases {
		if c.Name == "" || c.Classname == "" {
			t.Errorf("testcase without name or classname: %+v", c)
		}
		if c.Failure != nil {
			if c.Failure.Type != "regression" || c.Failure.Message == "" {
				t.Errorf("failure %+v", c.Failure)
			}
			failed[c.Name] = true
		}
	}
	if s.Tests == nil || s.Failures == nil || s.Errors == nil || *s.Tests != 5 || len(s.Cases) != 5 || *s.Failures != len(failed) || doc.Tests != 5 {
		t.Errorf("suite attributes tests %v failures %v errors %v, %d cases; want 5 tests and failures = %d", s.Tests, s.Failures, s.Errors, len(s.Cases), len(failed))
	}
	if len(failed) != 2 || !failed["program"] || !failed[h.RegionNames[2]] {
		t.Errorf("failed cases %v, want the program and %s", failed, h.RegionNames[2])
	}
	r = ok(t, nil, "--db", url, "--format", "json", "results")
	if !strings.Contains(r.stdout, `"regress"`) {
		t.Errorf("regress result not stored: %s", r.stdout)
	}
	r = ok(t, nil, "--db", url, "--format", "json", "regress", "--where", `application == "slow-app"`, "--order-by", "meta:slow", "--no-save")
	var res struct {
		Tables []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Tables) != 6 || res.Tables[1].Name != "changes" {
		t.Errorf("JSON tables %+v (%v), want history, changes, explain, metadata, series, moved", res.Tables, err)
	}
}

// validateJUnit validates a JUnit report with xmllint against
// testdata/junit.xsd (the shape CI systems read, see that file). Without
// xmllint it skips, unless TAUDB_REQUIRE_XMLLINT=1 (scripts/test.sh installs
// it and sets that).
func validateJUnit(t *testing.T, report string) {
	t.Helper()
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("TAUDB_REQUIRE_XMLLINT") == "1" {
			t.Fatal("xmllint is not installed (apt-get install libxml2-utils)")
		}
		t.Log("xmllint not installed: the JUnit report is not validated against the schema")
		return
	}
	f := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(f, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), f).CombinedOutput()
	if err != nil {
		t.Errorf("the JUnit report does not validate against testdata/junit.xsd: %v\n%s", err, out)
	}
}
