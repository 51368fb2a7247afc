package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for benchtool when the driver
// re-runs itself as the launcher or an analysis child.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case launchCommand:
			if err := runLauncher(os.Stdin, os.Stdout); err != nil {
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(1)
			}
			os.Exit(0)
		case childCommand:
			if err := runChild(os.Args[2:], os.Stdout); err != nil {
				os.Stderr.WriteString(err.Error() + "\n")
				os.Exit(1)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}
