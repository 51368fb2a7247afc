//go:build ppkwrite

package main

import "github.com/taudb-analyze/taudb-analyze/drg/ppk"

// With the tag ppkwrite (set by bench.sh when drg/ppk has WriteFile), the
// parse rows include a generated .ppk file.
func init() { ppkWriter = ppk.WriteFile }
