package registry

import "github.com/spf13/pflag"

// Option describes one option of an analysis, as a form or a study file
// sets it.
type Option struct {
	// Name is the option's name, the command line's flag without "--".
	Name string
	// Shorthand is its one-letter name ("k"), "" when none.
	Shorthand string
	// Type is the value's type: bool, int, uint64, float64, string or
	// stringSlice (comma-separated strings).
	Type string
	// Default is the default value as text.
	Default string
	// Help is one line of help.
	Help string
	// Allowed are the values the option takes, when they are a fixed set
	// (nil otherwise).
	Allowed []string
	// Required says the analysis cannot run without a value (Validate
	// refuses the default).
	Required bool
}

// allowedKey and requiredKey are the flag annotations that keep an
// option's allowed values and that it is required.
const (
	allowedKey  = "registry_allowed"
	requiredKey = "registry_required"
)

func optionOf(f *pflag.Flag) Option {
	return Option{Name: f.Name, Shorthand: f.Shorthand, Type: f.Value.Type(), Default: f.DefValue, Help: f.Usage,
		Allowed: f.Annotations[allowedKey], Required: f.Annotations[requiredKey] != nil}
}

// Binder declares the options of an analysis (Options.Bind): each call
// stores the default in the option's field and declares the option with
// its help.
type Binder struct {
	fs *pflag.FlagSet
	// keep binds to the values the fields hold instead of storing the
	// defaults (Analysis.Set binds options already set).
	keep bool
}

// Bool declares a boolean option.
func (b *Binder) Bool(p *bool, name string, def bool, help string) {
	if b.keep {
		def = *p
	}
	b.fs.BoolVar(p, name, def, help)
}

// Int declares an integer option.
func (b *Binder) Int(p *int, name string, def int, help string) {
	if b.keep {
		def = *p
	}
	b.fs.IntVar(p, name, def, help)
}

// IntP declares an integer option with a one-letter shorthand.
func (b *Binder) IntP(p *int, name, short string, def int, help string) {
	if b.keep {
		def = *p
	}
	b.fs.IntVarP(p, name, short, def, help)
}

// Uint64 declares an unsigned integer option.
func (b *Binder) Uint64(p *uint64, name string, def uint64, help string) {
	if b.keep {
		def = *p
	}
	b.fs.Uint64Var(p, name, def, help)
}

// Float declares a floating-point option.
func (b *Binder) Float(p *float64, name string, def float64, help string) {
	if b.keep {
		def = *p
	}
	b.fs.Float64Var(p, name, def, help)
}

// String declares a text option.
func (b *Binder) String(p *string, name, def, help string) {
	if b.keep {
		def = *p
	}
	b.fs.StringVar(p, name, def, help)
}

// Enum declares a text option whose values are a fixed set (allowed; the
// analysis still checks the value, with its own words).
func (b *Binder) Enum(p *string, name, def string, allowed []string, help string) {
	if b.keep {
		def = *p
	}
	b.fs.StringVar(p, name, def, help)
	_ = b.fs.SetAnnotation(name, allowedKey, allowed)
}

// Strings declares a list option, comma-separated on a command line.
func (b *Binder) Strings(p *[]string, name string, def []string, help string) {
	if b.keep {
		def = append([]string(nil), *p...)
	}
	b.fs.StringSliceVar(p, name, def, help)
}

// Required marks the options called names, declared before, as required:
// the analysis's Validate refuses their defaults.
func (b *Binder) Required(names ...string) {
	for _, n := range names {
		_ = b.fs.SetAnnotation(n, requiredKey, []string{"true"})
	}
}
