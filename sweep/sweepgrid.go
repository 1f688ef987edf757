package sweep

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hcreplay/hcreplay/internal/smallfile"
	"github.com/hcreplay/hcreplay/trace"
)

// Grid is a sweep as the user writes it (SPEC §6): a PET, heuristics, pruning variants, levels
// (trace sets) and any replay option as a list of values. The sweep is the cross product of
// every list, times the trials of each level.
//
// In YAML every key of GridOptions, heuristics and prune takes one value or a list; a key that
// is left out takes the default of `hcreplay replay`. The json tags are the YAML keys: they are
// the only spelling of a key, used both to read the grid and to record it in manifest.json.
// docs/sweep-example.yaml documents every key.
type Grid struct {
	PET        string       `json:"pet"`                 // PET file
	Catalog    string       `json:"catalog,omitempty"`   // machine catalog; default one machine per PET machine type
	TimeUnit   string       `json:"time_unit,omitempty"` // unit of trace files that do not say (default ms)
	Heuristics List[string] `json:"heuristics"`          // heuristics or presets
	Prune      List[string] `json:"prune,omitempty"`     // none, defer, drop, both (default none)
	Levels     []Level      `json:"levels"`
	GridOptions

	source string            // file name, or "" for a grid made from flags
	origin map[string]string // key path → where it was set: "grid.yaml:12" or "--prune"
}

// GridOptions are the replay, pruning and heuristic options a grid can vary (SPEC §5.1, §5.3).
// Empty means the default; see defaultOptions.
type GridOptions struct {
	QueueSize        List[int]     `json:"queue_size,omitempty"`
	DropModel        List[string]  `json:"drop_model,omitempty"`
	Strict           List[bool]    `json:"strict,omitempty"`
	ConditionElapsed List[bool]    `json:"condition_elapsed,omitempty"`
	Trim             List[int]     `json:"trim,omitempty"`
	Seed             List[uint64]  `json:"seed,omitempty"`
	Engine           List[string]  `json:"engine,omitempty"`
	Toggle           List[string]  `json:"toggle,omitempty"`
	Lambda           List[float64] `json:"lambda,omitempty"`
	DropThreshold    List[float64] `json:"drop_threshold,omitempty"`
	Rho              List[float64] `json:"rho,omitempty"`
	Defer            List[string]  `json:"defer,omitempty"`
	Fairness         List[float64] `json:"fairness,omitempty"`
	KPBPercent       List[float64] `json:"kpb_percent,omitempty"`
	MOCCull          List[float64] `json:"moc_cull,omitempty"`
	DeferAt          List[string]  `json:"defer_at,omitempty"`
	DropRunning      List[string]  `json:"drop_running,omitempty"`
	SufferageExpired List[bool]    `json:"sufferage_expired,omitempty"`
}

// Level is one trace set of a sweep: trials read from files (Trace) or generated (Generate).
type Level struct {
	Name     string    `json:"name"`               // label in the rows: 19k, spiky20k, ...
	Trace    string    `json:"trace,omitempty"`    // file, folder, glob, zip member (a.zip#arr/x.dat) or zip glob
	Generate *Generate `json:"generate,omitempty"` // synthetic trials instead of files
	// Trials is how many trials the level has: the first N files of Trace (0: all of them), or
	// N generated trials (required).
	Trials int `json:"trials,omitempty"`
	// Deadline is the rule for trace files without deadlines (tight, prop:ALPHA, urgency,
	// slack:BETA, best:K); Seed seeds its random draws (urgency), trial i on stream i.
	Deadline string `json:"deadline,omitempty"`
	Seed     uint64 `json:"seed"`
	// Rate is the level's arrival rate in tasks per time unit, for the rows' level_rate. By
	// default it is the rate of the name read as a label (19k) or, when the name is no label,
	// unknown.
	Rate float64 `json:"rate,omitempty"`
}

// Generate describes synthetic trials (trace.GenConfig): the task types and deadline means come
// from the PET. Its zero values are replaced by the defaults of `hcreplay trace gen` when the
// grid is read.
type Generate struct {
	Level    string  `json:"level,omitempty"` // oversubscription label: tasks per period (19k)
	Rate     float64 `json:"rate,omitempty"`  // tasks per time unit, instead of level
	Period   float64 `json:"period"`          // of the label, in time units (default 88200)
	Pattern  string  `json:"pattern"`         // constant (default) or spiky[:on=D,off=D,ratio=R]
	Tasks    int     `json:"tasks"`           // per trial (default 800)
	CV       float64 `json:"cv,omitempty"`    // of inter-arrival times; 0: variance = 10% of the mean
	Deadline string  `json:"deadline"`        // rule (default prop:1)
	Seed     uint64  `json:"seed"`            // trial t draws from stream (seed, t) (default 1)
}

// NewGrid returns an empty grid; set its keys with Set. Messages about a key name the flag
// given to Set.
func NewGrid() *Grid { return &Grid{origin: map[string]string{}} }

// ParseGrid reads a grid from YAML. name is the file's name, for messages: every error names
// the file, the line and the key. Unknown keys, values of the wrong type and empty lists are
// errors here; values that parse but make no sense are errors of Validate.
func ParseGrid(data []byte, name string) (*Grid, error) {
	g := NewGrid()
	g.source = name
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: the grid is empty", name)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: the grid must be a mapping of keys (pet, heuristics, levels, ...)", name, root.Line)
	}
	err := g.decodeMapping(root, "", fieldsOf(g), func(key string, v *yaml.Node) (bool, error) {
		if key != "levels" {
			return false, nil
		}
		return true, g.decodeLevels(v)
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Set sets a top-level key (anything but levels) from a flag: values is one value or a
// comma-separated list. flag names the flag in messages.
func (g *Grid) Set(key, values, flag string) error {
	fields := fieldsOf(g)
	ptr, ok := lookup(fields, key)
	if !ok || key == "levels" {
		return fmt.Errorf("%s: unknown grid key %q (known: %s)", flag, key, keysOf(fields, "levels"))
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: values}
	if _, isList := ptr.(yaml.Unmarshaler); isList {
		n = &yaml.Node{Kind: yaml.SequenceNode}
		for _, v := range strings.Split(values, ",") {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: strings.TrimSpace(v)})
		}
	}
	if err := decodeValue(n, ptr); err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	g.origin[key] = flag
	return nil
}

// SetLevels replaces the levels with levels made from flags; flags[i] names level i's flag.
func (g *Grid) SetLevels(levels []Level, flags []string) {
	for k := range g.origin {
		if strings.HasPrefix(k, "levels") {
			delete(g.origin, k)
		}
	}
	g.Levels = levels
	for i, f := range flags {
		g.origin[fmt.Sprintf("levels[%d]", i)] = f
	}
}

// Where says where a key was set, for messages: "grid.yaml:12: levels[1].trace", "--prune",
// or "grid.yaml: heuristics" for a key the file leaves out. A level's key that is not set is
// placed at its level.
func (g *Grid) Where(key string) string {
	for k := key; ; k = k[:strings.LastIndex(k, ".")] {
		if o, ok := g.origin[k]; ok {
			if strings.HasPrefix(o, "-") { // a flag: its name says it all
				return o
			}
			return o + ": " + key
		}
		if !strings.Contains(k, ".") {
			break
		}
	}
	if g.source == "" {
		return key
	}
	return g.source + ": " + key
}

// decodeMapping decodes a YAML mapping key by key into fields (key → pointer). special, if it
// returns true, has decoded the key itself.
func (g *Grid) decodeMapping(n *yaml.Node, path string, fields []field, special func(string, *yaml.Node) (bool, error)) error {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		full := path + k.Value
		g.origin[full] = fmt.Sprintf("%s:%d", g.source, k.Line)
		ptr, ok := lookup(fields, k.Value)
		if !ok {
			return fmt.Errorf("%s:%d: unknown key %q%s (known: %s)", g.source, k.Line, k.Value, inside(path), keysOf(fields, ""))
		}
		if seen[k.Value] {
			return fmt.Errorf("%s:%d: key %q appears twice%s", g.source, k.Line, k.Value, inside(path))
		}
		seen[k.Value] = true
		if v.Tag == "!!null" {
			return fmt.Errorf("%s:%d: %s: no value", g.source, k.Line, full)
		}
		if special != nil {
			done, err := special(k.Value, v)
			if err != nil {
				return err
			}
			if done {
				continue
			}
		}
		if err := decodeValue(v, ptr); err != nil {
			return fmt.Errorf("%s:%d: %s: %w", g.source, v.Line, full, err)
		}
	}
	return nil
}

func inside(path string) string {
	if path == "" {
		return ""
	}
	return " in " + strings.TrimSuffix(path, ".")
}

func (g *Grid) decodeLevels(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("%s:%d: levels: want a list of levels (- name: 19k ...)", g.source, n.Line)
	}
	if len(n.Content) == 0 {
		return fmt.Errorf("%s:%d: levels: empty list", g.source, n.Line)
	}
	for i, item := range n.Content {
		path := fmt.Sprintf("levels[%d]", i)
		g.origin[path] = fmt.Sprintf("%s:%d", g.source, item.Line)
		if item.Kind != yaml.MappingNode {
			return fmt.Errorf("%s:%d: %s: want a mapping (name, trace or generate, trials, ...)", g.source, item.Line, path)
		}
		lv := Level{Seed: 1}
		err := g.decodeMapping(item, path+".", fieldsOf(&lv), func(key string, v *yaml.Node) (bool, error) {
			if key != "generate" {
				return false, nil
			}
			if v.Kind != yaml.MappingNode {
				return true, fmt.Errorf("%s:%d: %s.generate: want a mapping (level or rate, pattern, tasks, ...)", g.source, v.Line, path)
			}
			lv.Generate = DefaultGenerate()
			return true, g.decodeMapping(v, path+".generate.", fieldsOf(lv.Generate), nil)
		})
		if err != nil {
			return err
		}
		g.Levels = append(g.Levels, lv)
	}
	return nil
}

// DefaultGenerate returns the defaults of `hcreplay trace gen`.
func DefaultGenerate() *Generate {
	return &Generate{Period: trace.DefaultPeriod, Pattern: "constant", Tasks: 800, Deadline: "prop:1", Seed: 1}
}

// List is a grid key that takes one value or a list of values.
type List[T any] []T

// UnmarshalYAML reads a scalar as a list of one, or a sequence of scalars.
func (l *List[T]) UnmarshalYAML(n *yaml.Node) error {
	var nodes []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		nodes = []*yaml.Node{n}
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return errors.New("empty list")
		}
		nodes = n.Content
	default:
		return errors.New("want a value or a list of values")
	}
	out := make(List[T], len(nodes))
	for i, c := range nodes {
		if c.Kind != yaml.ScalarNode {
			return errors.New("want a list of plain values")
		}
		if err := decodeScalar(c, &out[i]); err != nil {
			return err
		}
	}
	*l = out
	return nil
}

// decodeValue decodes n into ptr: a List, or a pointer to a scalar.
func decodeValue(n *yaml.Node, ptr any) error {
	if u, ok := ptr.(yaml.Unmarshaler); ok {
		return u.UnmarshalYAML(n)
	}
	if n.Kind != yaml.ScalarNode {
		return errors.New("want a single value")
	}
	return decodeScalar(n, ptr)
}

// decodeScalar parses a scalar's text itself, so that messages say what was wrong in the
// user's words rather than in YAML's types.
func decodeScalar(n *yaml.Node, ptr any) error {
	s := strings.TrimSpace(n.Value)
	var err error
	switch p := ptr.(type) {
	case *string:
		if s == "" {
			return errors.New("empty value")
		}
		*p = s
	case *int:
		if *p, err = strconv.Atoi(s); err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
	case *uint64:
		if *p, err = strconv.ParseUint(s, 10, 64); err != nil {
			return fmt.Errorf("%q is not a non-negative whole number", s)
		}
	case *float64:
		if *p, err = strconv.ParseFloat(s, 64); err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
	case *bool:
		if *p, err = strconv.ParseBool(s); err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
	default:
		return fmt.Errorf("internal error: cannot decode into %T", ptr)
	}
	return nil
}

// field is a grid key and a pointer to the struct field that holds its value.
type field struct {
	key string
	ptr any
}

// fieldsOf lists the keys of a struct (its fields' json names, embedded structs included) in the
// order of the struct, with pointers to the fields.
func fieldsOf(ptr any) []field {
	var out []field
	v := reflect.ValueOf(ptr).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Anonymous {
			out = append(out, fieldsOf(v.Field(i).Addr().Interface())...)
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if key == "" || key == "-" || !f.IsExported() {
			continue
		}
		out = append(out, field{key, v.Field(i).Addr().Interface()})
	}
	return out
}

func lookup(fields []field, key string) (any, bool) {
	for _, f := range fields {
		if f.key == key {
			return f.ptr, true
		}
	}
	return nil, false
}

// keysOf lists the keys of fields, for messages; skip leaves one out.
func keysOf(fields []field, skip string) string {
	var keys []string
	for _, f := range fields {
		if f.key != skip {
			keys = append(keys, f.key)
		}
	}
	return strings.Join(keys, ", ")
}

// ReadGrid reads the grid file path, or starts an empty grid when path is "", and returns it
// with base, the folder its relative paths are relative to: the file's, made absolute ("" with
// no file).
func ReadGrid(path string) (g *Grid, base string, err error) {
	if path == "" {
		return NewGrid(), "", nil
	}
	b, err := smallfile.Read(path)
	if err != nil {
		return nil, "", fmt.Errorf("read grid %s: %w", path, err)
	}
	if g, err = ParseGrid(b, path); err != nil {
		return nil, "", err
	}
	if base, err = filepath.Abs(filepath.Dir(path)); err != nil {
		return nil, "", err
	}
	return g, base, nil
}
