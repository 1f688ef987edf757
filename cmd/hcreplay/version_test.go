package main

import (
	"runtime/debug"
	"testing"
)

func TestChooseVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name   string
		linked string
		info   *debug.BuildInfo
		want   string
	}{
		{"ldflags wins", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "v1.2.3"},
		{"no build info", "dev", nil, "dev"},
		{"module version", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: vcs(rev, "false")}, "v0.9.0"},
		{"vcs revision", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "dev-0123456789ab"},
		{"dirty vcs revision", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "dev-0123456789ab-dirty"},
		{"nothing recorded", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := chooseVersion(tt.linked, tt.info); got != tt.want {
				t.Errorf("chooseVersion(%q, ...) = %q, want %q", tt.linked, got, tt.want)
			}
		})
	}
}
