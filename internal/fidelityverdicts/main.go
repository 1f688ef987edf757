// Command fidelityverdicts splices the verdicts of `hcreplay figures` runs into
// docs/fidelity.md: for each verdicts.json given, the table of its preset's claims replaces the
// text between the preset's markers in the document (make fidelity-verdicts runs it).
//
// It owns only the splicing; the table's layout is package presets' (Verdicts.Table).
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/presets"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: fidelityverdicts DOC.md VERDICTS.json...")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "fidelityverdicts:", err)
		os.Exit(1)
	}
}

func run(docPath string, verdicts []string) error {
	b, err := os.ReadFile(docPath)
	if err != nil {
		return err
	}
	doc := string(b)
	for _, path := range verdicts {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		v, err := presets.ReadVerdicts(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if doc, err = presets.SpliceVerdicts(doc, v); err != nil {
			return fmt.Errorf("%s: %w", docPath, err)
		}
	}
	return atomicfile.Write(docPath, func(w io.Writer) error {
		_, err := io.WriteString(w, doc)
		return err
	})
}
