package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// launchCommand is the hidden subcommand of the launcher: a small process,
// started before benchtool holds any data, that runs the measured children.
//
// On Linux a child's ru_maxrss starts at its parent's peak RSS (exec folds
// the parent's address space high-water mark, shared through vfork, into
// the child's), so children started by benchtool itself, once it has held
// a large trial, would all report at least that much. Started by the
// launcher they carry over only the launcher's few MB.
const launchCommand = "__launch"

// launchRequest asks the launcher to run one command.
type launchRequest struct {
	Name string
	Args []string
	Keep bool
}

// launchReply is the launcher's answer: the Measured fields, and the error
// text when the command failed.
type launchReply struct {
	WallNS int64
	PeakMB float64
	Stdout []byte
	Err    string
}

// runLauncher serves requests, one JSON line each on in, with one JSON line
// each on out, until in ends.
func runLauncher(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req launchRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("launcher: read a request: %w", err)
		}
		m, err := runDirect(context.Background(), req.Keep, req.Name, req.Args...)
		rep := launchReply{WallNS: int64(m.Wall), PeakMB: m.PeakMB, Stdout: m.Stdout}
		if err != nil {
			rep.Err = err.Error()
		}
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("launcher: write a reply: %w", err)
		}
	}
	return sc.Err()
}

// launcher is benchtool's side of a running launcher process.
type launcher struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startLauncher starts self as the launcher.
func startLauncher(self string) (*launcher, error) {
	cmd := exec.Command(self, launchCommand)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start the launcher: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start the launcher: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the launcher: %w", err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &launcher{cmd: cmd, in: in, out: sc}, nil
}

// run has the launcher run one command and returns what it measured.
func (l *launcher) run(name string, keep bool, args []string) (Measured, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	req, err := json.Marshal(launchRequest{Name: name, Args: args, Keep: keep})
	if err != nil {
		return Measured{}, fmt.Errorf("launch %s: %w", name, err)
	}
	if _, err := l.in.Write(append(req, '\n')); err != nil {
		return Measured{}, fmt.Errorf("launch %s: %w", name, err)
	}
	if !l.out.Scan() {
		return Measured{}, fmt.Errorf("launch %s: the launcher stopped: %v", name, l.out.Err())
	}
	var rep launchReply
	if err := json.Unmarshal(l.out.Bytes(), &rep); err != nil {
		return Measured{}, fmt.Errorf("launch %s: read the reply: %w", name, err)
	}
	m := Measured{Wall: time.Duration(rep.WallNS), PeakMB: rep.PeakMB, Stdout: rep.Stdout}
	if rep.Err != "" {
		return m, errors.New(rep.Err)
	}
	return m, nil
}

// stop ends the launcher and waits for it.
func (l *launcher) stop() error {
	l.in.Close()
	return l.cmd.Wait()
}
