package watch

import (
	"context"
	"errors"
	"time"
)

// RunOptions say how Run polls, when it stops and whom it tells.
type RunOptions struct {
	// Poll is the time between two polls (default 500 ms).
	Poll time.Duration
	// IdleExit, when > 0, stops the watch after no new dump for that long
	// (once at least one dump was read, or from the start if none comes).
	IdleExit time.Duration
	// OnInterval is called with every closed interval, in order, while
	// its Deltas are set (to store it); an error stops the watch.
	OnInterval func(*Interval) error
	// OnUpdate is called with the live view as JSON after every poll that
	// closed an interval, and once at the end; an error stops the watch.
	OnUpdate func(view []byte) error
}

// Run polls until ctx is cancelled (Ctrl-C) or the run goes idle for
// IdleExit, then reads what is left and closes every open interval, so
// that everything read so far is handed to OnInterval. A cancelled
// context is a clean stop (nil error).
func (w *Watcher) Run(ctx context.Context, ro RunOptions) error {
	if ro.Poll <= 0 {
		ro.Poll = 500 * time.Millisecond
	}
	tick := time.NewTicker(ro.Poll)
	defer tick.Stop()
	w.activity = w.opt.Now()
	if err := w.publish(ro); err != nil {
		return err
	}
	for {
		ivs, err := w.Poll(ctx)
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if err := w.deliver(ivs, ro); err != nil {
			return err
		}
		if ctx.Err() != nil || ro.IdleExit > 0 && w.opt.Now().Sub(w.activity) >= ro.IdleExit {
			break
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	ivs, err := w.Finish(context.WithoutCancel(ctx))
	if err != nil {
		return err
	}
	if err := w.deliver(ivs, ro); err != nil {
		return err
	}
	w.view.Status = "ended"
	return w.publish(ro)
}

// deliver hands closed intervals to the view and OnInterval, then drops
// their deltas.
func (w *Watcher) deliver(ivs []*Interval, ro RunOptions) error {
	for _, iv := range ivs {
		w.view.add(iv)
		if ro.OnInterval != nil {
			if err := ro.OnInterval(iv); err != nil {
				return err
			}
		}
		w.Release(iv)
	}
	if len(ivs) > 0 {
		return w.publish(ro)
	}
	return nil
}

// publish sends the view to OnUpdate.
func (w *Watcher) publish(ro RunOptions) error {
	if ro.OnUpdate == nil {
		return nil
	}
	return ro.OnUpdate(w.View())
}

// View returns the live view as JSON: the time series, the latest
// interval in detail, the newest anomalies and notes.
func (w *Watcher) View() []byte {
	w.mu.Lock()
	notes := append([]string(nil), w.notes...)
	w.mu.Unlock()
	return w.view.json(w.opt.Now(), notes)
}

// Add records intervals closed by Poll or Finish in the live view (Run
// does so itself).
func (w *Watcher) Add(ivs []*Interval) {
	for _, iv := range ivs {
		w.view.add(iv)
	}
}
