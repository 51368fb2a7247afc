package main

import (
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
)

// progress is a progress bar on the terminal for a piece of long work
// (loading many files, running over many trials, the steps of a study). It
// draws only when stderr is a terminal, and never with --quiet or
// --format json; otherwise every method does nothing. A nil *progress is
// valid and silent.
type progress struct {
	bar *progressbar.ProgressBar
}

// terminal reports whether w is a terminal.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// progress starts a bar of total steps labelled what; it returns nil (a
// silent bar) when there is nothing to show: fewer than two steps, output
// not on a terminal, --quiet or --format json.
func (a *app) progress(total int, what string) *progress {
	if total < 2 || a.quiet || a.format == "json" || !terminal(a.errOut) {
		return nil
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(a.errOut),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)}
}

// step advances the bar by one step and names the next piece of work.
func (p *progress) step(next string) {
	if p == nil {
		return
	}
	if next != "" {
		p.bar.Describe(next)
	}
	_ = p.bar.Add(1)
}

// done removes the bar from the terminal.
func (p *progress) done() {
	if p == nil {
		return
	}
	_ = p.bar.Finish()
	_ = p.bar.Clear()
}

// println prints a line on w above the bar, which is drawn again after it.
func (p *progress) println(w io.Writer, line string) {
	if p == nil {
		io.WriteString(w, line+"\n")
		return
	}
	_ = p.bar.Clear()
	io.WriteString(w, line+"\n")
	_ = p.bar.RenderBlank()
}
