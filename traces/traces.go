// Package traces holds the sample data of `hcreplay demo`: a PET matrix and arrival trials at
// three oversubscription levels that the tool generated itself from fixed seeds
// (traces/generate.sh), embedded so that the demo runs anywhere without files.
//
// It owns the data only; it does not know how the demo uses it.
package traces

import (
	"embed"
	"io/fs"
)

//go:embed demo
var demo embed.FS

// Demo returns the sample data: pet.json and arr{9k,19k,34k}_{1..5}.csv.
func Demo() fs.FS {
	sub, err := fs.Sub(demo, "demo")
	if err != nil {
		panic(err) // the folder is embedded at build time
	}
	return sub
}
