package main

import (
	"fmt"
	"runtime/debug"

	"github.com/alecthomas/kong"
)

// version is the release version, set at link time with
// -ldflags "-X main.version=v1.2.3". Left at "dev", buildVersion falls back
// to what the Go toolchain recorded in the binary.
var version = "dev"

// VersionCmd is "hcreplay version". It prints the same line as --version.
type VersionCmd struct{}

// Run prints the version line that newParser stored in the "version" variable.
func (c *VersionCmd) Run(con *Console, vars kong.Vars) error {
	_, err := fmt.Fprintln(con.Stdout, vars["version"])
	return err
}

// buildVersion returns the version to report for this binary.
func buildVersion() string {
	info, _ := debug.ReadBuildInfo()
	return chooseVersion(version, info)
}

// chooseVersion prefers the link-time version, then the module version that
// "go install module@version" records, then the VCS revision that "go build"
// records inside a checkout. It is separate from buildVersion so the
// fallbacks can be tested.
func chooseVersion(linked string, info *debug.BuildInfo) string {
	if linked != "" && linked != "dev" {
		return linked
	}
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "dev-" + rev
}
