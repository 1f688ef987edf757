//go:build unix

package trace

import (
	"os"
	"syscall"
)

// openNonblock opens path for reading without waiting for a FIFO's writer.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
