package main

import (
	"github.com/spf13/cobra"
	"github.com/taudb-analyze/taudb-analyze/classify"
)

// rulesFlag is the --rules flag of every command that classifies regions
// (overhead, imbalance, summary, multiset): one rules file changes them
// all alike (package classify, docs/rules.md).
type rulesFlag struct{ path string }

func (r *rulesFlag) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&r.path, "rules", "", "a YAML rules file that adds, overrides or removes region classification rules (docs/rules.md)")
}

// load returns the rules the file makes of the defaults, or nil (the
// defaults) without --rules. A bad file's error names it and the line.
func (r *rulesFlag) load() ([]classify.Rule, error) {
	if r.path == "" {
		return nil, nil
	}
	return classify.LoadRules(r.path)
}
