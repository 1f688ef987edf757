package kongconfig

import (
	"fmt"
	"regexp"
	"strings"
)

// NegativeValues joins "--flag -1" into "--flag=-1": kong reads a value that starts with a
// dash as a short flag and answers "expected int value but got "-1" (short flag)", where the
// user meant a number (so no short flag may be a digit). Everything after "--" is left.
func NegativeValues(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && i+1 < len(args) && negativeNumber.MatchString(args[i+1]) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

var (
	negativeNumber = regexp.MustCompile(`^-[0-9.]`)
	// kong's refusal of a negative value for an unsigned flag (--seed=-1).
	negativeUnsigned = regexp.MustCompile(`^--([a-z0-9-]+): expected a valid \d+ bit uint but got "(-[^"]*)"`)
)

// UnsignedError rewrites kong's "--seed: expected a valid 64 bit uint but got "-1"" as what
// the user can act on: "--seed -1: seed must be ≥ 0". Other errors it returns as they are.
func UnsignedError(err error) error {
	m := negativeUnsigned.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	return fmt.Errorf("--%s %s: %s must be ≥ 0", m[1], m[2], strings.ReplaceAll(m[1], "-", " "))
}
