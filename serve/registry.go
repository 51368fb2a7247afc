package serve

import "github.com/taudb-analyze/taudb-analyze/registry"

// formTypes maps the registry's option types to the form's.
var formTypes = map[string]string{"bool": "bool", "int": "int", "uint64": "int", "float64": "float", "string": "string", "stringSlice": "string"}

// RegisteredAnalyses describes every analysis of package registry for the
// form: its trials (one, two, or a series of at least MinTrials; one for
// an analysis that also takes a single trial) and its typed options with
// their defaults, help and allowed values.
func RegisteredAnalyses() []AnalysisSpec {
	var out []AnalysisSpec
	for _, an := range registry.All() {
		sp := AnalysisSpec{Name: an.Name, Help: an.Short, MinTrials: an.MinTrials}
		switch an.Trials {
		case registry.Single:
			sp.MaxTrials = 1
		case registry.Pair:
			sp.MaxTrials = 2
		}
		if an.AlsoSingle {
			sp.MinTrials = 1
		}
		for _, o := range an.Options() {
			typ := formTypes[o.Type]
			if typ == "" {
				typ = "string"
			}
			help := o.Help
			if o.Type == "stringSlice" {
				help += " (a comma-separated list)"
			}
			sp.Options = append(sp.Options, OptionSpec{Name: o.Name, Type: typ, Default: o.Default, Help: help, Choices: o.Allowed})
		}
		out = append(out, sp)
	}
	return out
}

// SetOptions returns analysis name's options holding their defaults and
// the values given (by option name, as text); a bad name or value is an
// *InputError.
func SetOptions(name string, values map[string]string) (*registry.Analysis, registry.Options, error) {
	an, err := registry.Lookup(name)
	if err != nil {
		return nil, nil, &InputError{Msg: err.Error()}
	}
	o := an.Defaults()
	for k, v := range values {
		if err := an.Set(o, k, v); err != nil {
			return nil, nil, &InputError{Msg: err.Error()}
		}
	}
	if err := o.Validate(); err != nil {
		return nil, nil, &InputError{Msg: err.Error()}
	}
	return an, o, nil
}
