//go:build !purego

package pmf

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestHasAVX2MatchesCPUInfo: hasAVX2's reading of CPUID and XCR0 agrees with the flags Linux
// lists in /proc/cpuinfo, where avx2 appears only when the processor has it and the kernel saves
// its registers. Skipped where there is no /proc/cpuinfo.
func TestHasAVX2MatchesCPUInfo(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	for _, line := range strings.Split(string(info), "\n") {
		name, flags, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) != "flags" {
			continue
		}
		want := slices.Contains(strings.Fields(flags), "avx2")
		if got := hasAVX2(); got != want {
			t.Errorf("hasAVX2() = %v; /proc/cpuinfo lists avx2: %v", got, want)
		}
		return
	}
	t.Skip("no flags line in /proc/cpuinfo")
}
