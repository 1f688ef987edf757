//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// lock takes an exclusive advisory lock on f, held until f is closed (or the process ends,
// however it ends).
func lock(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// abandoned reports whether no process holds the lock of the file at path.
func abandoned(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}
