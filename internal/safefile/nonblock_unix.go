//go:build unix

package safefile

import "syscall"

// nonblock keeps the open of a FIFO from waiting for a writer.
const nonblock = syscall.O_NONBLOCK
