//go:build !unix

package safefile

// nonblock is 0 where there is no O_NONBLOCK.
const nonblock = 0
