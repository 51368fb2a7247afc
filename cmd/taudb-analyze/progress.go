package main

import (
	"fmt"
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

// drawsProgress reports whether progress bars are drawn at all: stderr is
// a terminal, without --quiet or --format json.
func (a *app) drawsProgress() bool {
	return !a.quiet && a.format != "json" && terminal(a.errOut)
}

// progress starts a bar of total steps labelled what; it returns nil (a
// silent bar) when there is nothing to show: fewer than two steps, output
// not on a terminal, --quiet or --format json.
func (a *app) progress(total int, what string) *progress {
	if total < 2 || !a.drawsProgress() {
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
	line = escapeText(line, "\n")
	if p == nil {
		io.WriteString(w, line+"\n")
		return
	}
	_ = p.bar.Clear()
	io.WriteString(w, line+"\n")
	_ = p.bar.RenderBlank()
}

// bigSave is the number of rows from which the save of one trial gets a
// progress bar of its own (at about 100,000 rows/s, ten seconds of work).
const bigSave = 1 << 20

// saveProgress returns a store.SaveOptions.Progress function for the save
// of one trial, named what, and a function to call when the save ends. With
// a bar of files running (several paths), the save's percentage goes into
// that bar's description; otherwise a save of bigSave rows or more draws a
// bar of rows of its own. Where no bar is drawn, report is nil, so that
// the save does not count its rows for nobody.
func (a *app) saveProgress(files *progress, what string) (report func(done, total int64), finish func()) {
	if !a.drawsProgress() {
		return nil, func() {}
	}
	if files != nil {
		return func(done, total int64) {
			files.bar.Describe(fmt.Sprintf("saving %s: %d%%", what, 100*done/max(total, 1)))
		}, func() {}
	}
	var rows *progress
	started := false
	return func(done, total int64) {
			if !started {
				started = true
				if total >= bigSave {
					rows = a.progress(int(total), "saving "+what+" (rows)")
				}
			}
			if rows != nil {
				_ = rows.bar.Set64(done)
			}
		}, func() {
			rows.done()
		}
}
