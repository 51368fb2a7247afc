// Command taudb-analyze is a multi-experiment performance analysis engine
// for TAU trials stored in a TAUdb database.
//
//	taudb-analyze [--db URL] [--format table|json|csv] COMMAND [flags]
//
// Exit codes: 0 success, 1 an error while doing the work (bad input file,
// database error, ...), 2 a usage error (unknown command or flag, bad flag
// value).
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/taudb-analyze/taudb-analyze/internal/gctune"
)

func main() {
	gctune.Start()
	os.Exit(run(os.Args[1:]))
}

// run executes the command line and returns the exit code.
func run(args []string) int {
	out := &safeWriter{w: os.Stdout}
	app := newApp(out, os.Stderr)
	cmd := app.root()
	cmd.SetArgs(args)
	err := cmd.Execute()
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "taudb-analyze: %s\n", escapeText(err.Error(), "\n"))
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return 2
	}
	return 1
}
