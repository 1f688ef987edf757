package presets_test

import (
	"fmt"

	"github.com/hcreplay/hcreplay/presets"
)

// A user's experiment file with a typo'd key fails with the file, the line and the key.
func ExampleParse() {
	file := `name: mine
title: my rerun (Doe 2024)
citation: {authors: Jane Doe, year: 2024, title: A Paper}
setup: 8 machines.
experiments:
  - name: levels
    levels: [15k, 30k]
    sweeps:
      - heuristics: [MM, PAM]
        prune: [both]
    figures:
      - file: fig1-robustness
        title: Fig 1
        kind: robustness
        paper: PAM beats MM.
        metrics: [robustness]
        claims:
          - form: ordering
            section: Doe 2024 §4
            wording: PAM beats MM.
            metric: robustness
            level: 30k
            ordr: [{name: PAM-P}, {name: MM-P}]
`
	_, err := presets.Parse([]byte(file), "mine.yaml")
	fmt.Println(err)
	// Output: mine.yaml:23: unknown key "ordr"
}
