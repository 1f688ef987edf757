//go:build !unix

package atomicfile

import (
	"os"
	"time"
)

func lock(*os.File) {}

// abandoned reports whether the file at path was left untouched for an hour.
func abandoned(path string) bool {
	st, err := os.Stat(path)
	return err == nil && time.Since(st.ModTime()) > time.Hour
}
