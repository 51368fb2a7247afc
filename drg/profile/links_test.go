package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oneTimer is a valid one-timer profile of 5 µs exclusive.
const oneTimer = "1 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n\"main\" 1 0 5 5 0 GROUP=\"TAU_DEFAULT\"\n0 aggregates\n"

// TestLinksInsideAccepted reads a folder whose profile.1.0.0 is a link to
// a file in a subfolder of the trial: it stays inside, so it is read (two
// threads, 5 µs each, 10 in all); a link to the same content outside the
// folder is refused, naming the link and its target.
func TestLinksInsideAccepted(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "trial")
	for path, content := range map[string]string{
		filepath.Join(dir, "profile.0.0.0"):      oneTimer,
		filepath.Join(dir, "kept", "thread1"):    oneTimer,
		filepath.Join(top, "outside", "thread2"): oneTimer,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("kept/thread1", filepath.Join(dir, "profile.1.0.0")); err != nil {
		t.Fatal(err)
	}
	tr, err := Reader{Path: dir}.Read()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, v := range tr.Values[0].Exclusive {
		total += v
	}
	if len(tr.Threads) != 2 || total != 10 {
		t.Errorf("%d threads, %g µs in all; want 2 and 10", len(tr.Threads), total)
	}
	if err := os.Symlink("../outside/thread2", filepath.Join(dir, "profile.2.0.0")); err != nil {
		t.Fatal(err)
	}
	_, err = Reader{Path: dir}.Read()
	want := filepath.Join(dir, "profile.2.0.0") + `: a symbolic link to "../outside/thread2", outside the trial folder ` + dir + ": not read"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
}
