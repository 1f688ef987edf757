package trace

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// A .dat file keeps a task type as an integer index, not a name: with a PET's types a name is
// written as its index (and read back through the same PET), without them every type must be
// an index already. These helpers say which case a trace or a PET's types are in.

// NamedByIndex reports whether every type is named by its own index ("0", "1", ...), so that a
// .dat file loses nothing of the names.
func NamedByIndex(types []string) bool {
	for i, name := range types {
		if name != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// NonIndexType returns the first task type of tr that is not a plain non-negative index (a
// .dat file keeps only those), and whether there is one; "+1" and "-1" are not indexes.
func NonIndexType(tr *Trace) (string, bool) {
	for _, t := range tr.Tasks {
		if _, err := strconv.Atoi(t.Type); err != nil || t.Type != strings.TrimLeft(t.Type, "+-") {
			return t.Type, true
		}
	}
	return "", false
}

// IndexList shows how names map to indexes: "0=fft, 1=sort, 2=zip", cut after six with the
// number in all.
func IndexList(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i == 6 {
			fmt.Fprintf(&b, ", … (%d in all)", len(names))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d=%s", i, n)
	}
	return b.String()
}

// CheckDatTypes checks that tr's task types can be written to the .dat file out, whose types
// are integer indexes, and returns a warning when the names are lost: with the PET's types
// (types), a name becomes its index (replay and trace convert read it back through the same
// PET); without them (types nil), every type must be an index already. The messages name the
// --pet flag that gives the types.
func CheckDatTypes(tr *Trace, types []string, out string) (warning string, err error) {
	if types == nil {
		if name, found := NonIndexType(tr); found {
			return "", fmt.Errorf("%s: task type %q is not an index, and a .dat file keeps only indexes: give --pet PET to write the PET's index of each type", out, name)
		}
		return "", nil
	}
	if !NamedByIndex(types) {
		return fmt.Sprintf("%s: the .dat format keeps no type names: task types are written as indexes into the PET's (%s); "+
			"replay it, or convert it back, with the same --pet", out, IndexList(types)), nil
	}
	return "", nil
}

// TypeIndexNote says how .dat trials of a PET's types name them, for trace gen's summary
// line: empty when the types are named by their indexes already.
func TypeIndexNote(types []string) string {
	if NamedByIndex(types) {
		return ""
	}
	return "; .dat keeps task types as indexes into the PET's (" + strings.TrimSpace(IndexList(types)) + ")"
}

// IsTrialFile reports whether name is a trace file named as a trial of a set, NAME_N.EXT
// (arr19k_3.csv, load1.5_3.dat.gz), as trace gen names them.
func IsTrialFile(name string) bool {
	if !HasTraceExtension(name) {
		return false
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
	stem = strings.TrimSuffix(stem, filepath.Ext(stem)) // load1.5_3.dat: load1.5_3
	i := strings.LastIndexByte(stem, '_')
	return i >= 0 && i+1 < len(stem) && strings.Trim(stem[i+1:], "0123456789") == ""
}
