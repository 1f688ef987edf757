package sweep

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
)

// GridPath is a path of the grid, relative to the folder base unless absolute or empty.
func GridPath(base, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

// InputsDigest identifies the PET and catalog files a sweep reads (Sweep.InputsDigest):
// a SHA-256 of their bytes, the catalog's empty for the default one. It is "" when a file cannot
// be read whole (a zip member): then no sweep is refused for its inputs.
func InputsDigest(pet, catalog string) string {
	h := sha256.New()
	for _, p := range []string{pet, catalog} {
		var b []byte
		if p != "" {
			var err error
			if b, err = os.ReadFile(p); err != nil {
				return ""
			}
		}
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}
