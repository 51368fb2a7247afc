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
	"io"
	"os"

	"github.com/taudb-analyze/taudb-analyze/internal/gctune"
)

func main() {
	gctune.Start()
	gctune.LimitToAddressSpace()
	os.Exit(run(os.Args[1:]))
}

// run executes the command line and returns the exit code.
func run(args []string) int { return runWith(args, os.Stdout, os.Stderr) }

// runWith executes the command line with the given writers (tests run it
// in-process) and returns the exit code: 0, 1 for an error in the work, 2
// for an error in the request (a usageError, or a library error whose
// Usage method says so). Everything written to out passes through a
// safeWriter, which escapes control characters.
func runWith(args []string, stdout, errOut io.Writer) int {
	out := &safeWriter{w: stdout}
	app := newApp(out, errOut)
	cmd := app.root()
	cmd.SetArgs(args)
	err := cmd.Execute()
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(errOut, "taudb-analyze: %s\n", escapeText(err.Error(), "\n"))
	var ec interface{ ExitCode() int } // regress --fail-on: 3 (registry.RegressionFound)
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	var ue usageError
	var ur interface{ Usage() bool } // a library's error in the request (analysis.ConstantPError)
	if errors.As(err, &ue) || (errors.As(err, &ur) && ur.Usage()) {
		return 2
	}
	return 1
}
