// Command benchtool measures taudb-analyze at scale and prints one markdown
// table in which every figure stands next to a reference measured in the
// same run on the same data, with their ratio:
//
//  1. parse: MB/s of each TAU reader against `cat` of the same files, and
//     of each reader of another profiler's format (Caliper, Score-P CUBE,
//     HPCToolkit) against the TAU profile reader timed alternately with
//     it;
//  2. ingest into PostgreSQL: rows/s of SaveTrial against psql \copy of the
//     same rows into the same tables;
//  3. ingest into SQLite: rows/s of SaveTrial against the sqlite3 shell's
//     .import --csv of the same rows;
//  4. fetch: rows/s of LoadTrial against COPY (its queries) TO STDOUT;
//  5. analyses: time and peak memory at three sizes against one pass over
//     the values, with growth exponents log(t2/t1)/log(n2/n1);
//  6. end to end through the CLI binary: values/s and peak RSS per step.
//
// Usage (from the repository's root; scripts/bench.sh does all of it):
//
//	go run ./scripts/benchtool -mode quick -pg URL [-cli BIN] [-out FILE] [-only STEPS]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == childCommand {
		if err := runChild(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "benchtool:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == launchCommand {
		if err := runLauncher(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "benchtool:", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchtool:", err)
		os.Exit(1)
	}
}

// lastRows are the rows of the last run that succeeded, for the test.
var lastRows []Row

// run parses the flags, measures every row into a private temporary folder
// (removed at the end) and prints the table on stdout and into -out.
func run(ctx context.Context, args []string, stdout, log io.Writer) error {
	fs := flag.NewFlagSet("benchtool", flag.ContinueOnError)
	fs.SetOutput(log)
	modeName := fs.String("mode", "quick", "sizes: tiny, quick or full")
	pg := fs.String("pg", os.Getenv("TAUDB_TEST_PG_URL"), "PostgreSQL URL a private database is created next to")
	cli := fs.String("cli", "", "the taudb-analyze binary (default: built into the temporary folder)")
	repo := fs.String("repo", ".", "the repository's root")
	out := fs.String("out", "", "also write the table to this file")
	only := fs.String("only", "", "run only these steps, comma-separated (parse, postgres, sqlite, sqlite result, analyses, end to end); default all")
	if err := fs.Parse(args); err != nil {
		return err
	}
	mode, err := LookupMode(*modeName)
	if err != nil {
		return err
	}
	if *pg == "" {
		return fmt.Errorf("no PostgreSQL URL: give -pg or set TAUDB_TEST_PG_URL")
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program's executable: %w", err)
	}
	l, err := startLauncher(self)
	if err != nil {
		return err
	}
	activeLauncher = l
	defer func() {
		activeLauncher = nil
		l.stop()
	}()
	tmp, err := os.MkdirTemp("", "taudb-bench-")
	if err != nil {
		return fmt.Errorf("make the temporary folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	if mode.Name == "huge" && *only == "" {
		*only = "end to end" // the other rows are full's
	}
	b := &bench{mode: mode, repo: *repo, tmp: tmp, cli: *cli, pgAdmin: *pg, self: self, log: log, only: *only}
	if b.cli == "" {
		b.cli = filepath.Join(tmp, "tmp", "taudb-analyze")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b.cli, "./cmd/taudb-analyze")
		cmd.Dir = *repo
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build the CLI: %w\n%s", err, out)
		}
	}
	start := time.Now()
	b.logf("mode %s, data in %s", mode.Name, tmp)
	if err := b.run(ctx); err != nil {
		return err
	}
	sort.SliceStable(b.rows, func(i, j int) bool { return b.rows[i].Step < b.rows[j].Step })
	lastRows = b.rows
	table := Render(b.rows)
	fmt.Fprint(stdout, table)
	b.logf("mode %s took %s", mode.Name, time.Since(start).Round(time.Second))
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			return fmt.Errorf("write the table to %s: %w", *out, err)
		}
	}
	return nil
}
