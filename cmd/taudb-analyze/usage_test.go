package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestExitCodesByErrorKind runs command lines in-process: every error in
// the command line exits 2, every error in the work 1, whatever words the
// error's text happens to contain.
func TestExitCodesByErrorKind(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"inspect", "/tmp/no such/invalid argument"}, 1, "no such file or directory"},
		{[]string{"inspect", "/tmp/unknown flag: accepts required flag"}, 1, "no such file or directory"},
		{[]string{"nosuch"}, 2, `unknown command "nosuch" for "taudb-analyze"`},
		{[]string{"spedup"}, 2, "did you mean speedup?"},
		{[]string{"db", "bogus"}, 2, `unknown command "bogus" for "taudb-analyze db"`},
		{[]string{"inspect", "a", "b"}, 2, "inspect takes one PATH, got 2"},
		{[]string{"trials", "extra"}, 2, `unknown command "extra" for "taudb-analyze trials"`},
		{[]string{"speedup", "--bogus"}, 2, "unknown flag: --bogus"},
		{[]string{"cluster", "-k"}, 2, "flag needs an argument"},
		{[]string{"cluster", "-k", "two"}, 2, `invalid argument "two"`},
		{[]string{"--format", "xml", "version"}, 2, `--format "xml"`},
		{[]string{"version"}, 0, ""},
	} {
		var out, errOut bytes.Buffer
		code := runWith(c.args, &out, &errOut)
		if code != c.code || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut.String(), c.code, c.want)
		}
	}
}

func TestNaturalCompare(t *testing.T) {
	in := []string{"runs/128.ppk", "runs/16.ppk", "runs/2.ppk", "runs/p8/", "runs/p10/", "runs/p9", "runs/a", "runs/002.ppk"}
	slices.SortStableFunc(in, naturalCompare)
	want := []string{"runs/2.ppk", "runs/002.ppk", "runs/16.ppk", "runs/128.ppk", "runs/a", "runs/p8/", "runs/p9", "runs/p10/"}
	if !slices.Equal(in, want) {
		t.Errorf("natural order %q, want %q", in, want)
	}
}
