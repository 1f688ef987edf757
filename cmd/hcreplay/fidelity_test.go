package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHelperCLI is not a test: TestFidelityScriptQuick runs the test binary as hcreplay through
// a wrapper script, with this test selected and the arguments after "--".
func TestHelperCLI(t *testing.T) {
	if os.Getenv("FIDELITY_HELPER") == "" {
		t.Skip("helper process of TestFidelityScriptQuick")
	}
	os.Exit(run(flag.Args(), os.Stdout, os.Stderr))
}

// TestFidelityScriptQuick runs scripts/fidelity.sh --quick (2 trials a level) on the HCW19 data
// and checks that it prints, with a number, every key that docs/fidelity.md quotes: the script
// that regenerates the fidelity tables cannot fall out of step with them or with the CLI.
func TestFidelityScriptQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps every paper's table: runs in the full suite, not the short race pass")
	}
	data, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data", "hcw19"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, "constant.zip")); err != nil {
		t.Skip("no HCW19 data at ../shared/data/hcw19")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "fidelity.md"))
	if err != nil {
		t.Fatal(err)
	}
	keys := regexp.MustCompile("`((?:thesis|journal|conference|batch2010)\\.[^`\\s]+)`").FindAllStringSubmatch(string(doc), -1)
	if len(keys) < 20 {
		t.Fatalf("docs/fidelity.md quotes %d keys of scripts/fidelity.sh; want its tables' numbers named by key", len(keys))
	}
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "hcreplay")
	script := "#!/bin/sh\nFIDELITY_HELPER=1 exec " + os.Args[0] + " -test.run='^TestHelperCLI$' -- \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, filepath.Join("..", "..", "scripts", "fidelity.sh"), "--quick", data, filepath.Join(dir, "runs"))
	cmd.Env = append(os.Environ(), "HCREPLAY="+wrapper)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scripts/fidelity.sh --quick: %v\n%s", err, stderr.String())
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, "\t")
		got[k] = v
	}
	number := regexp.MustCompile(`^-?\d+\.\d+( ± \d+\.\d+)?$`)
	for _, k := range keys {
		if v, ok := got[k[1]]; !ok || !number.MatchString(v) {
			t.Errorf("docs/fidelity.md quotes %s; the script prints %q", k[1], v)
		}
	}
}
