//go:build !purego

package pmf

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCPUFeaturesMatchCPUInfo: hasAVX2's and hasAVX512's readings of CPUID and XCR0 agree with
// the flags Linux lists in /proc/cpuinfo, where avx2 and avx512f appear only when the processor
// has them and the kernel saves their registers. Skipped where there is no /proc/cpuinfo.
func TestCPUFeaturesMatchCPUInfo(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	for _, line := range strings.Split(string(info), "\n") {
		name, flags, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) != "flags" {
			continue
		}
		for _, c := range []struct {
			flag string
			has  func() bool
		}{{"avx2", hasAVX2}, {"avx512f", hasAVX512}} {
			want := slices.Contains(strings.Fields(flags), c.flag)
			if got := c.has(); got != want {
				t.Errorf("has %s: %v; /proc/cpuinfo lists it: %v", c.flag, got, want)
			}
		}
		return
	}
	t.Skip("no flags line in /proc/cpuinfo")
}
