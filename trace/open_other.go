//go:build !unix

package trace

import "os"

// openNonblock opens path for reading.
func openNonblock(path string) (*os.File, error) { return os.Open(path) }
