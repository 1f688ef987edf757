// Package kongconfig lets a YAML or TOML file set the flags of a kong command line, by flag
// name, in sections per command, below environment variables and the command line; and checks
// the enum values environment variables give; and mends two of kong's readings of the command
// line, of negative numbers (NegativeValues, UnsignedError). It owns the file's format and its
// checks; it knows no command or flag of its own.
package kongconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/pelletier/go-toml/v2"
	"go.yaml.in/yaml/v3"

	"github.com/hcreplay/hcreplay/internal/smallfile"
)

// Error is an error of the config file itself (unreadable, malformed, a key no flag has, a
// value a flag refuses): the user's to fix by editing the file, for which usage help is no help.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

func fileError(err error) error { return &Error{err} }

// A config file sets flag values by name, like this TOML:
//
//	quiet = true          # top level: every command that has --quiet
//	seed = 3
//	[replay]              # "hcreplay replay" only; beats the top level
//	seed = 5
//	log-level = "warn"    # log_level works too
//	[pet.build]           # "hcreplay pet build"
//	bins = 64
//
// or the same nested under replay: and pet: build: in YAML. The innermost
// section that sets a flag wins. Flags tagged env:"-" (--config, --version)
// are command-line only: they have no variable and no config key either.
//
// kong's own config support cannot do this: kong-yaml and kong-toml are not
// available, kong.JSON ignores the command path and kebab-case keys, and any
// kong config resolver beats environment variables (go-dependencies.md §5).

// Flag is the type of a --config flag. kong calls its BeforeResolve hook when the
// flag is on the command line; the hook adds the file as a resolver, which
// kong then asks for every flag the command line left unset.
type Flag string

// BeforeResolve loads the config file. The flag's struct field is not set
// yet at this stage, so the path comes from the parse context.
func (Flag) BeforeResolve(kctx *kong.Context, trace *kong.Path) error {
	path := string(kctx.FlagValue(trace.Flag).(Flag))
	cfg, err := loadConfig(path)
	if err != nil {
		return err
	}
	kctx.AddResolver(cfg)
	return nil
}

// configFile is a loaded config file. It is a kong.Resolver.
type configFile struct {
	path   string
	values map[string]any
}

// loadConfig reads a YAML (.yaml, .yml) or TOML (.toml) config file.
func loadConfig(path string) (*configFile, error) {
	var decode func([]byte, any) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		decode = yaml.Unmarshal
	case ".toml":
		decode = toml.Unmarshal
	default:
		return nil, fileError(fmt.Errorf("config %s: unknown format: want a .yaml, .yml or .toml file", path))
	}
	data, err := smallfile.Read(path)
	if err != nil {
		return nil, fileError(fmt.Errorf("read config %s: %w", path, err))
	}
	values := map[string]any{}
	if err := decode(data, &values); err != nil {
		return nil, fileError(fmt.Errorf("parse config %s: %w", position(path, err), err))
	}
	return &configFile{path: path, values: values}, nil
}

// position appends the line and column of a TOML syntax error to path.
// YAML errors name the line themselves.
func position(path string, err error) string {
	if derr := new(toml.DecodeError); errors.As(err, &derr) {
		row, col := derr.Position()
		return fmt.Sprintf("%s:%d:%d", path, row, col)
	}
	return path
}

// Resolve returns the config value for flag f of the selected command, or
// nil to leave f alone.
func (c *configFile) Resolve(kctx *kong.Context, _ *kong.Path, f *kong.Flag) (any, error) {
	// kong has already applied environment variables, and would let a
	// resolver override them; stepping aside keeps env above config.
	if !configurable(f) || envSet(f) {
		return nil, nil
	}
	key, v, ok := c.lookup(kctx.Model.Node, kctx.Selected(), f.Name)
	if !ok {
		return nil, nil
	}
	if err := checkValue(f, v); err != nil {
		return nil, fileError(fmt.Errorf("%w (from config %s, key %q)", err, c.path, key))
	}
	return v, nil
}

// Validate reports keys that no flag or command could use, so that a typo
// fails loudly instead of being ignored. kong calls it after Resolve.
func (c *configFile) Validate(app *kong.Application) error {
	var bad []string
	checkSection(app.Node, c.values, "", &bad)
	if len(bad) > 0 {
		return fileError(fmt.Errorf("config %s: %s", c.path, strings.Join(bad, "; ")))
	}
	return nil
}

// section is one table of a config file and the command it belongs to.
type section struct {
	node   *kong.Node
	values map[string]any
	prefix string // dotted path of the table, for messages: "pet.build."
}

// lookup finds the value of flag name for the selected command: the
// innermost section on the way from the top level to that command's section
// that sets it. It also returns the value's dotted key.
func (c *configFile) lookup(root, selected *kong.Node, name string) (string, any, bool) {
	secs := c.sections(root, selected)
	for i := len(secs) - 1; i >= 0; i-- {
		s := secs[i]
		k, v, ok := findKey(s.values, name)
		if ok && !isSection(s.node, k, v) {
			return s.prefix + k, v, true
		}
	}
	return "", nil, false
}

// sections returns the tables on the way from the top level down to the
// selected command's own section, as far as the file has them.
func (c *configFile) sections(root, selected *kong.Node) []section {
	var cmds []*kong.Node
	for n := selected; n != nil; n = n.Parent {
		if n.Type == kong.CommandNode {
			cmds = append(cmds, n)
		}
	}
	slices.Reverse(cmds)
	secs := []section{{node: root, values: c.values}}
	for _, cmd := range cmds {
		last := secs[len(secs)-1]
		k, v, ok := findKey(last.values, cmd.Name)
		sub, isMap := v.(map[string]any)
		if !ok || !isMap {
			break
		}
		secs = append(secs, section{node: cmd, values: sub, prefix: last.prefix + k + "."})
	}
	return secs
}

// checkSection appends to bad a complaint for each key of the table m (the
// section of node) that is neither a flag usable there nor a subcommand's
// section.
func checkSection(node *kong.Node, m map[string]any, prefix string, bad *[]string) {
	flags := flagKeys(node)
	seen := map[string]string{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		n := normKey(k)
		if first, dup := seen[n]; dup {
			*bad = append(*bad, fmt.Sprintf("keys %q and %q set the same flag", prefix+first, prefix+k))
			continue
		}
		seen[n] = k
		v := m[k]
		if cmd := subcommand(node, k); cmd != nil {
			if sub, ok := v.(map[string]any); ok {
				checkSection(cmd, sub, prefix+k+".", bad)
				continue
			}
			if !flags[n] {
				*bad = append(*bad, fmt.Sprintf("key %q names a command: want a section of flags", prefix+k))
				continue
			}
		}
		if !flags[n] {
			*bad = append(*bad, fmt.Sprintf("unknown key %q", prefix+k))
		}
	}
}

// flagKeys returns the normalised names of the configurable flags that a
// key in node's section can set: node's own and its ancestors' flags (which
// the command accepts too) and those of every command below node (which
// inherit the value).
func flagKeys(node *kong.Node) map[string]bool {
	keys := map[string]bool{}
	add := func(f *kong.Flag) {
		if configurable(f) {
			keys[normKey(f.Name)] = true
		}
	}
	for n := node.Parent; n != nil; n = n.Parent {
		for _, f := range n.Flags {
			add(f)
		}
	}
	_ = kong.Visit(node, func(v kong.Visitable, next kong.Next) error {
		if f, ok := v.(*kong.Flag); ok {
			add(f)
		}
		return next(nil)
	})
	return keys
}

// subcommand returns node's subcommand called name, looking through
// branching positional arguments, or nil.
func subcommand(node *kong.Node, name string) *kong.Node {
	for _, child := range node.Children {
		switch {
		case child.Type == kong.CommandNode && normKey(child.Name) == normKey(name):
			return child
		case child.Type == kong.ArgumentNode:
			if cmd := subcommand(child, name); cmd != nil {
				return cmd
			}
		}
	}
	return nil
}

// isSection reports whether key k with value v in node's section is a
// subcommand's section rather than a flag value.
func isSection(node *kong.Node, k string, v any) bool {
	_, isMap := v.(map[string]any)
	return isMap && subcommand(node, k) != nil
}

// findKey finds name in m, treating "-" and "_" alike.
func findKey(m map[string]any, name string) (string, any, bool) {
	want := normKey(name)
	for k, v := range m {
		if normKey(k) == want {
			return k, v, true
		}
	}
	return "", nil, false
}

// normKey lets log-level and log_level name the same flag.
func normKey(s string) string {
	return strings.ReplaceAll(s, "-", "_")
}

// configurable reports whether a config file may set f. Flags tagged
// env:"-" are command-line only; kong.DefaultEnvars gives every other flag a
// variable.
func configurable(f *kong.Flag) bool {
	return len(f.Envs) > 0
}

// envSet reports whether one of f's environment variables is set.
func envSet(f *kong.Flag) bool {
	for _, e := range f.Envs {
		if _, ok := os.LookupEnv(e); ok {
			return true
		}
	}
	return false
}

// checkValue decodes v into a scratch value of f's type, and checks it against
// f's enum if it has one. kong decodes and checks it again for real once
// Resolve returns it, but its errors would name only the flag; checking first
// lets the message name the file and key.
func checkValue(f *kong.Flag, v any) error {
	target := reflect.New(f.Target.Type()).Elem()
	switch target.Kind() {
	case reflect.Pointer:
		target.Set(reflect.New(target.Type().Elem()))
	case reflect.Map:
		target.Set(reflect.MakeMap(target.Type()))
	}
	scan := kong.Scan().PushTyped(v, kong.FlagValueToken)
	if err := f.Mapper.Decode(&kong.DecodeContext{Value: f.Value, Scan: scan}, target); err != nil {
		return err
	}
	if f.Enum == "" {
		return nil
	}
	return checkEnum(f.Value, target)
}

// checkEnum is kong's own enum check, with its message less the flag's name,
// which kong puts in front of a resolver's error: kong runs it only after every
// value is in, when it no longer knows where a value came from.
func checkEnum(f *kong.Value, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := checkEnum(f, v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return checkEnum(f, v.Elem())
	}
	got := fmt.Sprint(v.Interface())
	allowed := f.EnumSlice()
	if slices.Contains(allowed, got) {
		return nil
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Errorf("must be one of %s but got %q", strings.Join(quoted, ","), got)
}

// EnvEnums is a kong.Resolver that resolves nothing: it checks the values
// that environment variables give flags with an enum, so that a bad one names
// its variable, as kong's own message for a value of the wrong type does.
type EnvEnums struct{}

func (EnvEnums) Validate(*kong.Application) error { return nil }

func (EnvEnums) Resolve(_ *kong.Context, _ *kong.Path, f *kong.Flag) (any, error) {
	if f.Enum == "" {
		return nil, nil
	}
	for _, name := range f.Envs {
		if v, ok := os.LookupEnv(name); ok {
			if err := checkValue(f, v); err != nil {
				return nil, fmt.Errorf("%w (from envar %s=%q)", err, name, v)
			}
			return nil, nil // kong reads the first that is set
		}
	}
	return nil, nil
}
