package replay

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hcreplay/hcreplay/internal/smallfile"
)

// CatalogEntry is one line of a machine catalog (SPEC §4.5): Count machines named Name-0,
// Name-1, … (or just Name when Count is 1) of one PET machine type.
type CatalogEntry struct {
	Name         string  `yaml:"name"`
	MachineType  string  `yaml:"machine_type"`
	Count        int     `yaml:"count"`
	PricePerHour float64 `yaml:"price_per_hour"`
	PowerWatts   float64 `yaml:"power_watts"`
}

// defaultCatalog prices the eight machine types of the HCW19 PET. The prices and powers are
// illustrative: the papers map the machines to AWS prices without giving them (thesis §6.6), so
// these are on-demand prices of general-purpose instances of roughly the machines' generation and
// the rated power of comparable servers. They make cost and energy comparable between
// heuristics, not realistic in absolute terms.
//
//go:embed default_catalog.yaml
var defaultCatalog []byte

// MachineTypes is the machine type of each machine, as petbuild.PET.MeanExec takes them.
func MachineTypes(machines []Machine) []int {
	types := make([]int, len(machines))
	for i, m := range machines {
		types[i] = m.Type
	}
	return types
}

// DefaultCatalog returns one machine per PET machine type, priced from the embedded catalog by
// position (cycling when the PET has more than eight machine types).
func DefaultCatalog(machineTypes []string) []Machine {
	var entries []CatalogEntry
	if err := yaml.Unmarshal(defaultCatalog, &entries); err != nil || len(entries) == 0 {
		panic(fmt.Sprintf("replay: embedded default catalog: %v", err))
	}
	ms := make([]Machine, len(machineTypes))
	for i, name := range machineTypes {
		e := entries[i%len(entries)]
		ms[i] = Machine{Name: name, Type: i, PricePerHour: e.PricePerHour, PowerWatts: e.PowerWatts}
	}
	return ms
}

// ReadCatalog reads the catalog file at path, in the format its extension names (.yaml, .yml or
// .csv), refusing a file too large to be one (internal/smallfile); "" is the default catalog,
// one machine per machine type.
func ReadCatalog(path string, machineTypes []string) ([]Machine, error) {
	if path == "" {
		return DefaultCatalog(machineTypes), nil
	}
	b, err := smallfile.Read(path)
	if err != nil {
		return nil, fmt.Errorf("read catalog %s: %w", path, err)
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	return ParseCatalog(bytes.NewReader(b), path, format, machineTypes)
}

// ParseCatalog reads a catalog in YAML (a list of entries) or CSV (a header naming the fields,
// then one entry per row) and expands it into machines, resolving machine types against the
// PET's machine type names. An entry with a count n > 1 makes machines name-0 … name-(n−1);
// every machine's name must be its own, and a catalog makes at most maxCatalogMachines. name
// identifies the source in error messages.
func ParseCatalog(r io.Reader, name, format string, machineTypes []string) ([]Machine, error) {
	var entries []CatalogEntry
	var err error
	switch strings.ToLower(format) {
	case "yaml", "yml":
		dec := yaml.NewDecoder(r)
		dec.KnownFields(true) // a misspelt key (powerwatts) is an error, not a default
		err = dec.Decode(&entries)
		if errors.Is(err, io.EOF) {
			err = errors.New("empty catalog")
		}
	case "csv":
		entries, err = catalogCSV(r)
	default:
		err = fmt.Errorf("unknown catalog format %q: want yaml or csv", format)
	}
	if err != nil {
		return nil, fmt.Errorf("read catalog %s: %w", name, err)
	}
	return expandCatalog(entries, name, machineTypes)
}

func catalogCSV(r io.Reader) ([]CatalogEntry, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 {
		return nil, errors.New("empty catalog")
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"name", "machine_type"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("line 1: missing column %q", need)
		}
	}
	var entries []CatalogEntry
	for i, row := range rows[1:] {
		e := CatalogEntry{Name: row[col["name"]], MachineType: row[col["machine_type"]], Count: 1}
		for field, dst := range map[string]*float64{"price_per_hour": &e.PricePerHour, "power_watts": &e.PowerWatts} {
			if c, ok := col[field]; ok && strings.TrimSpace(row[c]) != "" {
				v, err := strconv.ParseFloat(strings.TrimSpace(row[c]), 64)
				if err != nil {
					return nil, fmt.Errorf("line %d column %s: %q is not a number", i+2, field, row[c])
				}
				*dst = v
			}
		}
		if c, ok := col["count"]; ok && strings.TrimSpace(row[c]) != "" {
			n, err := strconv.Atoi(strings.TrimSpace(row[c]))
			if err != nil {
				return nil, fmt.Errorf("line %d column count: %q is not a whole number", i+2, row[c])
			}
			e.Count = n
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// maxCatalogMachines is the most machines a catalog may expand into: far more than a replay
// can map onto at a useful speed (every mapping event looks at every machine), and few enough
// that a mistyped count is an error rather than an attempt to allocate billions of machines.
const maxCatalogMachines = 100_000

// maxCatalogValue bounds a machine's price per hour and power in watts: a thousand times the
// power of the largest computers, and far above any hourly price, yet low enough that cost and
// energy over the longest trace a reader accepts (trace.MaxSeconds) on maxCatalogMachines stay
// finite. A power of 1e308 W made the energy infinite without a word.
const maxCatalogValue = 1e12

func expandCatalog(entries []CatalogEntry, name string, machineTypes []string) ([]Machine, error) {
	index := map[string]int{}
	for i, t := range machineTypes {
		index[t] = i
	}
	var ms []Machine
	entryOf := map[string]int{} // machine name → the entry that made it, for duplicates
	for i, e := range entries {
		where := fmt.Sprintf("catalog %s entry %d (%s)", name, i+1, e.Name)
		ty, ok := index[e.MachineType]
		count := e.Count
		if count == 0 {
			count = 1 // YAML entries without a count mean one machine
		}
		switch {
		case e.Name == "":
			return nil, fmt.Errorf("catalog %s entry %d: no name", name, i+1)
		case !ok:
			return nil, fmt.Errorf("%s: machine type %q is not in the PET (%s)", where, e.MachineType, strings.Join(machineTypes, ", "))
		case e.Count < 0:
			return nil, fmt.Errorf("%s: count %d is negative", where, e.Count)
		case count > maxCatalogMachines-len(ms):
			return nil, fmt.Errorf("%s: count %d makes more than %d machines in all", where, count, maxCatalogMachines)
		case !(e.PricePerHour >= 0 && e.PowerWatts >= 0) || math.IsInf(e.PricePerHour, 1) || math.IsInf(e.PowerWatts, 1):
			return nil, fmt.Errorf("%s: price %v and power %v must be finite and ≥ 0", where, e.PricePerHour, e.PowerWatts)
		case e.PricePerHour > maxCatalogValue || e.PowerWatts > maxCatalogValue:
			return nil, fmt.Errorf("%s: price %v or power %v W is beyond %g: a corrupt value", where, e.PricePerHour, e.PowerWatts, maxCatalogValue)
		}
		for k := range count {
			n := e.Name
			if count > 1 {
				n = fmt.Sprintf("%s-%d", e.Name, k)
			}
			// Task outcomes name their machine (report's outcomes table): two of one name could
			// not be told apart.
			if j, dup := entryOf[n]; dup {
				return nil, fmt.Errorf("%s: machine name %q is also made by entry %d", where, n, j+1)
			}
			entryOf[n] = i
			ms = append(ms, Machine{Name: n, Type: ty, PricePerHour: e.PricePerHour, PowerWatts: e.PowerWatts})
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("catalog %s: no machines", name)
	}
	return ms, nil
}
