package main

import (
	"bytes"
	"compress/gzip"
	"context"
	be "encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/taudb-analyze/taudb-analyze/internal/hostile"
	"github.com/taudb-analyze/taudb-analyze/internal/realdata"
	"github.com/taudb-analyze/taudb-analyze/store"
	"github.com/taudb-analyze/taudb-analyze/store/storetest"
)

// goodProfile is a valid one-thread TAU profile with two timers; the bad
// inputs below are small edits of it.
const goodProfile = "2 templated_functions_MULTI_TIME\n" +
	"# Name Calls Subrs Excl Incl ProfileCalls\n" +
	"\"main\" 1 1 10 30 0 GROUP=\"TAU_DEFAULT\"\n" +
	"\"work\" 2 0 20 20 0 GROUP=\"TAU_USER\"\n" +
	"0 aggregates\n"

// badInput is one case of the bad-input catalogue: files to write into a
// fresh folder DIR, the command to run (DIR stands for the folder), and the
// exit code and the exact standard error (with the folder written DIR) that
// it must give.
type badInput struct {
	name   string
	files  map[string]string // path under DIR -> content
	setup  func(t *testing.T, dir string)
	args   []string
	code   int
	stderr string
}

// edit returns goodProfile with old replaced by new once.
func edit(old, new string) string { return strings.Replace(goodProfile, old, new, 1) }

// ppkHeader is a raw (not gzipped) packed profile head: the magic, version
// 2, compatible version 2 and a header block size.
func ppkHeader(blockSize int32) string {
	var b bytes.Buffer
	b.Write([]byte{0, 'P', 0, 'P', 0, 'K'})
	for _, v := range []int32{2, 2, blockSize} {
		be.Write(&b, be.BigEndian, v) //nolint:errcheck // bytes.Buffer
	}
	return b.String()
}

// gunzipped returns the decompressed content of a gzip file.
func gunzipped(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func badInputs(t *testing.T) []badInput {
	ppk := realdata.Real(t, "UO-OACISS-tau2/perfexplorer/StackedBarChart/2.ppk")
	payload := gunzipped(t, ppk)
	snapshot := filepath.Join(realdata.Root(), "testdata", "snapshots", "snapshot.0.0.0")
	snap, err := os.ReadFile(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 1<<20)
	return []badInput{
		{name: "truncated in a line", files: map[string]string{"p/profile.0.0.0": goodProfile[:strings.Index(goodProfile, "\"work\"")+4]},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: timer line "\"wor": want "NAME" calls subrs excl incl profcalls GROUP="..."`},
		{name: "truncated at a line end", files: map[string]string{"p/profile.0.0.0": goodProfile[:strings.Index(goodProfile, "\"work\"")]},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:3: file ends after 1 of 2 timer lines`},
		{name: "timer count below the lines", files: map[string]string{"p/profile.0.0.0": edit("2 templated", "1 templated")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: want "<n> aggregates" after 1 timer lines, got "\"work\" 2 0 20 20 0 GROUP=\"TAU_USER\""`},
		{name: "timer count above the lines", files: map[string]string{"p/profile.0.0.0": edit("2 templated", "3 templated")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:5: timer line "0 aggregates": want "NAME" calls subrs excl incl profcalls GROUP="..."`},
		{name: "user event count above the lines", files: map[string]string{"p/profile.0.0.0": goodProfile + "2 userevents\n# eventname numevents max min mean sumsqr\n\"e\" 1 1 1 1 1\n"},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:8: file ends after 1 of 2 user-event lines`},
		{name: "NaN", files: map[string]string{"p/profile.0.0.0": edit("1 1 10 30", "1 1 NaN 30")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:3: timer "main": number 3 (excl) is NaN`},
		{name: "Inf", files: map[string]string{"p/profile.0.0.0": edit("1 1 10 30", "1 1 10 -Inf")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:3: timer "main": number 4 (incl) is -Inf`},
		{name: "overflow to Inf", files: map[string]string{"p/profile.0.0.0": edit("1 1 10 30", "1 1 10 1e999")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:3: timer "main": number 4 (incl): "1e999" is out of the range of a double`},
		{name: "value near the largest double", files: map[string]string{"p/profile.0.0.0": edit("1 1 10 30", "1 1 10 1.7e308")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:3: timer "main": number 4 (incl): "1.7e308" is beyond the range of values accepted (±1e+100)`},
		{name: "negative call count", files: map[string]string{"p/profile.0.0.0": edit("2 0 20 20", "-2 0 20 20")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: timer "work": negative call count`},
		{name: "NaN user event", files: map[string]string{"p/profile.0.0.0": goodProfile + "1 userevents\n# eventname numevents max min mean sumsqr\n\"e\" 1 nan 1 1 1\n"},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:8: user event "e": number 2 (max) is nan`},
		{name: "duplicate thread files", files: map[string]string{"p/profile.0.0.0": goodProfile, "p/profile.00.0.0": goodProfile},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0 and DIR/p/profile.00.0.0: both are the profile of thread 0.0.0: remove one`},
		{name: "NUL in a name", files: map[string]string{"p/profile.0.0.0": edit(`"work"`, "\"wo\x00rk\"")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: timer "wo\x00rk": timer name holds a NUL byte at byte 3`},
		{name: "name not UTF-8", files: map[string]string{"p/profile.0.0.0": edit(`"work"`, "\"w\xf6rk\"")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: timer "w\xf6rk": timer name is not UTF-8: byte 2 is 0xf6`},
		{name: "group not UTF-8", files: map[string]string{"p/profile.0.0.0": edit(`TAU_USER`, "TAU_\xc0")},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: timer "work": group is not UTF-8: byte 5 is 0xc0`},
		{name: "name of 1 MB", files: map[string]string{"p/profile.0.0.0": edit(`"work"`, `"`+long+`"`)},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:4: timer "` + long[:40] + `...": timer name of 1048576 bytes is longer than the 65536 bytes a name may have`},
		{name: "binary garbage named like a profile", files: map[string]string{"p/profile.0.0.0": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:1: binary data, not a TAU profile (byte 1 is 0x89)`},
		{name: "escape sequences and a long line", files: map[string]string{"p/profile.0.0.0": edit("# Name Calls Subrs Excl Incl ProfileCalls", "\x1b]0;pwned\x07"+strings.Repeat("A", 200))},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:2: want the column header "# Name Calls Subrs Excl Incl ...", got "\x1b]0;pwned\a` + strings.Repeat("A", 30) + `..."`},
		{name: "empty file", files: map[string]string{"p/profile.0.0.0": ""},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0:0: empty file`},
		{name: "empty folder", setup: func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "p")) },
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p: no TAU profile files (profile.N.C.T, MULTI__*/profile.N.C.T), snapshot files or HPCToolkit database in this folder`},
		{name: "symlink loop in the folder", setup: func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, "p", "MULTI__TIME"))
			symlink(t, "..", filepath.Join(dir, "p", "MULTI__TIME", "up"))
			symlink(t, "self", filepath.Join(dir, "p", "self"))
		}, args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p: no TAU profile files (profile.N.C.T, MULTI__*/profile.N.C.T), snapshot files or HPCToolkit database in this folder`},
		{name: "path is a symlink loop", setup: func(t *testing.T, dir string) {
			symlink(t, "b", filepath.Join(dir, "a"))
			symlink(t, "a", filepath.Join(dir, "b"))
		}, args: []string{"load", "DIR/a"}, code: 1,
			stderr: `taudb-analyze: load DIR/a: stat DIR/a: too many levels of symbolic links`},
		{name: "ppk with a bad header block length", files: map[string]string{"x.ppk": ppkHeader(0x7fffffff)},
			args: []string{"load", "DIR/x.ppk"}, code: 1,
			stderr: `taudb-analyze: load DIR/x.ppk: DIR/x.ppk: offset 14: unexpected end of data: header block size 2147483647, 0 bytes left`},
		{name: "ppk with a negative header block length", files: map[string]string{"x.ppk": ppkHeader(-4)},
			args: []string{"load", "DIR/x.ppk"}, code: 1,
			stderr: `taudb-analyze: load DIR/x.ppk: DIR/x.ppk: offset 14: negative header block size -4`},
		{name: "ppk cut in half", files: map[string]string{"x.ppk": string(payload[:len(payload)/2])},
			args: []string{"load", "DIR/x.ppk"}, code: 1,
			stderr: ppkCutMessage},
		{name: "XML snapshot cut in half", files: map[string]string{"s/snapshot.0.0.0": string(snap[:len(snap)/2])},
			args: []string{"load", "DIR/s"}, code: 1,
			stderr: snapshotCutMessage},
		{name: "a trial name that exists", files: map[string]string{"p/profile.0.0.0": goodProfile},
			args: []string{"load", "-n", "kept", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: a trial named "kept" exists already (id 1); choose another name with -n, or give --allow-duplicate`},
		{name: "unknown metric", args: []string{"regions", "--trial", "kept", "--metric", "PAPI_NOPE"}, code: 1,
			stderr: `taudb-analyze: --metric: unknown metric "PAPI_NOPE": trial "kept" has "TIME"`},
		{name: "expression with an unknown function", args: []string{"ratio", "--trial", "kept", "--name", "R", "--expr", "system(TIME)"}, code: 1,
			stderr: "taudb-analyze: ratio R: unknown function \"system\"; the functions are min, max, abs, sqrt, log, log2, log10, exp, floor, ceil, metric (1:1)\n | system(TIME)\n | ^"},
		{name: "expression reaching outside", args: []string{"ratio", "--trial", "kept", "--name", "R", "--expr", `TIME.Env["HOME"]`}, code: 1,
			stderr: exprOutsideMessage},
		{name: "expression too long", args: []string{"ratio", "--trial", "kept", "--name", "R", "--expr", "TIME" + strings.Repeat(" ", 5000)}, code: 1,
			stderr: `taudb-analyze: ratio R: expression is 5004 bytes long; at most 4096 bytes are allowed`},
		{name: "expression too large", args: []string{"ratio", "--trial", "kept", "--name", "R", "--expr", strings.Repeat("TIME+", 200) + "1"}, code: 1,
			stderr: exprLargeMessage},
		{name: "expression with an unknown metric", args: []string{"ratio", "--trial", "kept", "--name", "R", "--expr", "TIME / PAPI_NOPE"}, code: 1,
			stderr: "taudb-analyze: ratio R: unknown metric \"PAPI_NOPE\"; the metrics are \"TIME\", and the pseudo-metrics CALLS, SUBROUTINES (1:8)\n | TIME / PAPI_NOPE\n | .......^"},
		{name: "where with four nested loops over 1..1000", args: []string{"speedup", "--where", "let r = 1..1000; all(r, {all(r, {all(r, {all(r, {# > 0})})})})"}, code: 2,
			stderr: `taudb-analyze: --where: a predicate inside another predicate's closure is not accepted in a trial selection`},
		{name: "where building ranges in every loop", args: []string{"speedup", "--where", "all(1..1000, {all(1..1000, {all(1..1000, {all(1..1000, {# > 0})})})})"}, code: 2,
			stderr: `taudb-analyze: --where: a predicate inside another predicate's closure is not accepted in a trial selection`},
		{name: "where building a huge range", args: []string{"speedup", "--where", "len(1..100000000) > 0"}, code: 1,
			stderr: "taudb-analyze: --where on trial 1 \"kept\": memory budget exceeded (1:6)\n | len(1..100000000) > 0\n | .....^"},
		{name: "no such trial", args: []string{"regions", "--trial", "nosuch"}, code: 1,
			stderr: `taudb-analyze: no such trial: no trial has the id or name "nosuch" (list them with "taudb-analyze trials")`},
		{name: "FIFO named like a profile", setup: func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "p", "profile.0.0.0")) },
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0: a named pipe (FIFO), not a regular file: not read`},
		{name: "FIFO named as the trial", setup: func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "x.ppk")) },
			args: []string{"load", "DIR/x.ppk"}, code: 1,
			stderr: `taudb-analyze: load DIR/x.ppk: DIR/x.ppk: a named pipe (FIFO), not a regular file: not read`},
		{name: "profile linked to /dev/zero", setup: func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, "p"))
			symlink(t, "/dev/zero", filepath.Join(dir, "p", "profile.0.0.0"))
		}, args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.0.0.0: a symbolic link to "/dev/zero", outside the trial folder DIR/p: not read`},
		{name: "profile linked to a secret outside the folder", files: map[string]string{"p/profile.0.0.0": goodProfile, "secret": "root:*:20228:0:99999:7:::\n"},
			setup: func(t *testing.T, dir string) { symlink(t, "../secret", filepath.Join(dir, "p", "profile.1.0.0")) },
			args:  []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/profile.1.0.0: a symbolic link to "../secret", outside the trial folder DIR/p: not read`},
		{name: "device as the XML file", setup: func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, "s"))
			symlink(t, "/dev/zero", filepath.Join(dir, "s", "snapshot.0.0.0"))
		}, args: []string{"load", "-f", "snapshot", "DIR/s"}, code: 1,
			stderr: `taudb-analyze: load DIR/s: DIR/s/snapshot.0.0.0: a symbolic link to "/dev/zero", outside the trial folder DIR/s: not read`},
		{name: "ppk bomb of 1.5 GiB", files: map[string]string{"x.ppk": string(hostile.GzipBomb(ppkV2Head, 0, 1536, nil))},
			args: []string{"load", "DIR/x.ppk"}, code: 1,
			stderr: `taudb-analyze: load DIR/x.ppk: DIR/x.ppk: offset 1073741824: decompressed payload larger than 1073741824 bytes (the limit; its gzip trailer states 1610612750)`},
		{name: "ppk bomb with a forged trailer", files: map[string]string{"x.ppk": string(hostile.GzipBomb(ppkV2Head, 0, 64, &forgedSize))},
			args: []string{"load", "DIR/x.ppk"}, code: 1,
			stderr: `taudb-analyze: load DIR/x.ppk: DIR/x.ppk: offset 1000: decompressed payload larger than 1000 bytes (the size its gzip trailer states)`},
		{name: "XML nested a million deep", files: map[string]string{"deep.xml.gz": gz("<profile_xml>\n" + strings.Repeat("<a>", 1_000_000))},
			args: []string{"load", "DIR/deep.xml.gz"}, code: 1,
			stderr: `taudb-analyze: load DIR/deep.xml.gz: DIR/deep.xml.gz:2: elements nested more than 256 deep`},
		{name: "XML text bomb", files: map[string]string{"t.xml.gz": string(hostile.GzipBomb([]byte("<profile_xml>\n<a>"), 'x', 1024, nil))},
			args: []string{"load", "DIR/t.xml.gz"}, code: 1,
			stderr: `taudb-analyze: load DIR/t.xml.gz: DIR/t.xml.gz:2: reading: a tag or a run of text longer than the limit of 33554432 bytes`},
		{name: "metric folder and its backup copy", files: map[string]string{"p/MULTI__TIME/profile.0.0.0": goodProfile, "p/MULTI__TIME.bak/profile.0.0.0": goodProfile},
			args: []string{"load", "DIR/p"}, code: 1,
			stderr: `taudb-analyze: load DIR/p: DIR/p/MULTI__TIME and DIR/p/MULTI__TIME.bak: both hold the metric "TIME": remove or rename one`},
		{name: "trial name not UTF-8", files: map[string]string{"p/profile.0.0.0": goodProfile},
			args: []string{"load", "-n", "a\xffb", "DIR/p"}, code: 2,
			stderr: `taudb-analyze: -n: trial name is not UTF-8: byte 2 is 0xff`},
	}
}

// Messages too long to write in the table.
var (
	ppkCutMessage      = `taudb-analyze: load DIR/x.ppk: DIR/x.ppk: offset 1243: unexpected end of data reading function name (need 12 bytes, 8 left)`
	snapshotCutMessage = `taudb-analyze: load DIR/s: DIR/s/snapshot.0.0.0:53: malformed XML: unexpected end of file inside <name>`
	exprOutsideMessage = "taudb-analyze: ratio R: member access (.) is not allowed (1:5)\n | TIME.Env[\"HOME\"]\n | ....^"
	exprLargeMessage   = "taudb-analyze: ratio R: expression has more than 256 nodes (names, numbers, operators and calls) (1:645)\n | " +
		strings.Repeat("TIME+", 200) + "1\n | " + strings.Repeat(".", 644) + "^"
)

// sparseRanks writes the profiles of 8,000 ranks, each with "main" and a
// timer of its own: 16,000 values that a dense trial would hold in 64
// million cells (see TestSparseTrialsUnderMemoryLimit).
func sparseRanks(t *testing.T, dir string) {
	p := filepath.Join(dir, "p")
	mkdir(t, p)
	for r := 0; r < 8000; r++ {
		prof := fmt.Sprintf("2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls\n"+
			"\"main\" 1 1 1 2 0 GROUP=\"TAU_DEFAULT\"\n\"own %d\" 1 0 1 1 0 GROUP=\"TAU_USER\"\n0 aggregates\n", r)
		if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("profile.%d.0.0", r)), []byte(prof), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ppkV2Head starts a version-2 packed profile: the magic, version 2 and
// compatible version 2, so that a bomb passes the header checks.
var ppkV2Head = []byte{0, 'P', 0, 'P', 0, 'K', 0, 0, 0, 2, 0, 0, 0, 2}

// forgedSize is the decompressed size a forged gzip trailer states.
var forgedSize uint32 = 1000

// gz returns s compressed with gzip.
func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s)) //nolint:errcheck // bytes.Buffer
	w.Close()          //nolint:errcheck // bytes.Buffer
	return b.String()
}

// mkfifo makes a named pipe at path, and its folder; it skips the test
// where there are none.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestBadInputCatalogue runs every case of the bad-input catalogue against
// each database system: the command must exit with the case's code and
// print exactly its message, nothing on stdout, and leave every table of
// the database with the rows it had (one good trial, "kept") and the
// database consistent (store.CheckIntegrity).
func TestBadInputCatalogue(t *testing.T) {
	cases := badInputs(t)
	databases(t, func(t *testing.T, url string) {
		good := filepath.Join(t.TempDir(), "good")
		mkdir(t, good)
		if err := os.WriteFile(filepath.Join(good, "profile.0.0.0"), []byte(goodProfile), 0o644); err != nil {
			t.Fatal(err)
		}
		ok(t, nil, "--db", url, "db", "init")
		ok(t, nil, "--db", url, "load", "-n", "kept", good)
		db, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		before := storetest.Counts(t, db)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				dir := t.TempDir()
				for rel, content := range c.files {
					p := filepath.Join(dir, rel)
					mkdir(t, filepath.Dir(p))
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if c.setup != nil {
					c.setup(t, dir)
				}
				args := []string{"--db", url}
				for _, a := range c.args {
					args = append(args, strings.ReplaceAll(a, "DIR", dir))
				}
				r := cli(t, nil, args...)
				stderr := strings.TrimSuffix(strings.ReplaceAll(r.stderr, dir, "DIR"), "\n")
				if r.code != c.code || stderr != c.stderr || r.stdout != "" {
					t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit %d and stderr\n%s", r.code, r.stdout, clipTo(stderr, 600), c.code, clipTo(c.stderr, 600))
				}
				storetest.SameCounts(t, c.name, before, storetest.Counts(t, db))
				storetest.CheckIntegrity(t, db)
			})
		}
		// After all of them, the database still works.
		ok(t, nil, "--db", url, "db", "check")
		r := ok(t, nil, "--db", url, "--format", "csv", "regions", "--trial", "kept", "--no-save")
		if !strings.Contains(r.stdout, "work") {
			t.Errorf("regions of the kept trial:\n%s", r.stdout)
		}
	})
}

// TestAcceptedOddInput covers the odd inputs that are accepted by policy
// (docs/reliability.md): negative times, which TAU's own loader also
// replaces by 0, load with a warning naming the timer and the thread and
// are stored as 0; an expression dividing by zero gives undefined values
// (NULL in the database), and the result says so.
func TestAcceptedOddInput(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		dir := filepath.Join(t.TempDir(), "neg")
		mkdir(t, dir)
		if err := os.WriteFile(filepath.Join(dir, "profile.0.0.0"), []byte(edit("1 1 10 30", "1 1 -10 30")), 0o644); err != nil {
			t.Fatal(err)
		}
		ok(t, nil, "--db", url, "db", "init")
		r := ok(t, nil, "--db", url, "load", "-n", "neg", dir)
		want := "warning: " + dir + `: 1 negative values replaced by 0 (first: "main" on thread 0.0.0)`
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
		r = ok(t, nil, "--db", url, "--format", "csv", "regions", "--trial", "neg", "--no-save")
		if !hasCSVRow(r.stdout, "main", "0") {
			t.Errorf("main's exclusive time is not 0:\n%s", r.stdout)
		}
		r = ok(t, nil, "--db", url, "-q", "ratio", "--trial", "neg", "--name", "R", "--expr", "TIME / 0")
		if !strings.Contains(r.stdout, "R of the main region ranges from NaN to NaN over 0 threads (mean NaN)") {
			t.Errorf("division by zero:\n%s", r.stdout)
		}
		ok(t, nil, "--db", url, "db", "check")
	})
}

// hasCSVRow reports whether a CSV output has a row whose first cell is
// first and that holds value in another cell.
func hasCSVRow(out, first, value string) bool {
	for _, l := range strings.Split(out, "\n") {
		cells := strings.Split(l, ",")
		if len(cells) > 1 && cells[0] == first {
			for _, c := range cells[1:] {
				if c == value {
					return true
				}
			}
		}
	}
	return false
}

func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// TestDBCheck runs "db check" on a consistent database (exit 0, says so)
// and on one with an orphan analysis_result row (exit 1, the problem on
// stdout, the count on stderr), in every output format. A fresh database
// has 37 references: the 36 foreign keys of TAUdb's and our schema plus
// analysis_result(analysis_settings), which TAUdb leaves undeclared.
func TestDBCheck(t *testing.T) {
	databases(t, func(t *testing.T, url string) {
		ok(t, nil, "--db", url, "db", "init")
		r := ok(t, nil, "--db", url, "db", "check")
		if !strings.HasSuffix(r.stdout, ": consistent (43 references checked)\n") {
			t.Errorf("db check of a fresh database: %q", r.stdout)
		}
		db, err := store.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		storetest.Exec(t, db, `INSERT INTO analysis_result (analysis_settings, description, result_type) VALUES (777, 'orphan', 0)`)
		problem := "1 rows of analysis_result(analysis_settings) -> analysis_settings(id) point at no row of analysis_settings"
		r = cli(t, nil, "--db", url, "db", "check")
		if r.code != 1 || r.stdout != problem+"\n" || r.stderr != "taudb-analyze: "+db.URL()+": 1 integrity problems\n" {
			t.Errorf("db check with an orphan: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		r = cli(t, nil, "--db", url, "--format", "json", "db", "check")
		var doc struct {
			OK         bool
			Problems   []string
			References int
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 1 || doc.OK ||
			len(doc.Problems) != 1 || doc.Problems[0] != problem || doc.References != 43 { // 36 of TAUdb and ours, 3 of the count tables, 1 of the long names, 2 of the watch tables, 1 of the pages
			t.Errorf("db check --format json with an orphan: exit %d, stdout %q (%v)", r.code, r.stdout, err)
		}
	})
}
