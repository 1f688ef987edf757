package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configArgs writes a config file called name with the given content into a
// temporary directory and returns args with every "CONFIG" replaced by its
// path. With name empty it returns args unchanged.
func configArgs(t *testing.T, name, content string, args []string) (path string, out []string) {
	t.Helper()
	if name == "" {
		return "", args
	}
	path = filepath.Join(t.TempDir(), name)
	writeFile(t, path, content)
	for _, a := range args {
		out = append(out, strings.ReplaceAll(a, "CONFIG", path))
	}
	return path, out
}

func TestConfigPrecedence(t *testing.T) {
	isolateEnv(t)
	const (
		defaults = "seed=1 log-level=info quiet=false rounds=0\n"
		seed3    = "seed=3 log-level=info quiet=false rounds=0\n"
		seed5    = "seed=5 log-level=info quiet=false rounds=0\n"
	)
	tests := []struct {
		name    string
		file    string // config file name; empty for none
		content string
		env     map[string]string
		args    []string // "CONFIG" becomes the config file's path
		want    string   // stdout
	}{
		{name: "default", args: []string{"replay"}, want: defaults},
		{
			name: "toml top level", file: "c.toml", content: "seed = 3\n",
			args: []string{"--config", "CONFIG", "replay"}, want: seed3,
		},
		{
			name: "yaml top level", file: "c.yaml", content: "seed: 3\n",
			args: []string{"--config", "CONFIG", "replay"}, want: seed3,
		},
		{
			name: "yml extension", file: "c.yml", content: "seed: 3\n",
			args: []string{"--config", "CONFIG", "replay"}, want: seed3,
		},
		{
			name: "toml section beats top level", file: "c.toml", content: "seed = 3\n[replay]\nseed = 5\n",
			args: []string{"--config", "CONFIG", "replay"}, want: seed5,
		},
		{
			name: "yaml section beats top level", file: "c.yaml", content: "replay:\n  seed: 5\nseed: 3\n",
			args: []string{"--config", "CONFIG", "replay"}, want: seed5,
		},
		{
			name: "section applies to its command only", file: "c.toml", content: "seed = 3\n[replay]\nseed = 5\n",
			args: []string{"--config", "CONFIG", "other"}, want: "seed=3 log-level=info quiet=false\n",
		},
		{
			name: "config beats default, --config after the command", file: "c.toml", content: "[replay]\nseed = 5\n",
			args: []string{"replay", "--config", "CONFIG"}, want: seed5,
		},
		{
			name: "env beats default",
			env:  map[string]string{"HCREPLAY_SEED": "7"},
			args: []string{"replay"}, want: "seed=7 log-level=info quiet=false rounds=0\n",
		},
		{
			name: "env beats config", file: "c.toml", content: "seed = 3\n[replay]\nseed = 5\n",
			env:  map[string]string{"HCREPLAY_SEED": "7"},
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=7 log-level=info quiet=false rounds=0\n",
		},
		{
			name: "env beats yaml config", file: "c.yaml", content: "replay: {seed: 5}\n",
			env:  map[string]string{"HCREPLAY_SEED": "7"},
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=7 log-level=info quiet=false rounds=0\n",
		},
		{
			name: "flag beats env and config", file: "c.toml", content: "[replay]\nseed = 5\n",
			env:  map[string]string{"HCREPLAY_SEED": "7"},
			args: []string{"--config", "CONFIG", "replay", "--seed", "9"}, want: "seed=9 log-level=info quiet=false rounds=0\n",
		},
		{
			name: "toml kebab key", file: "c.toml", content: "log-level = \"warn\"\n",
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=1 log-level=warn quiet=false rounds=0\n",
		},
		{
			name: "toml snake key", file: "c.toml", content: "[replay]\nlog_level = \"debug\"\n",
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=1 log-level=debug quiet=false rounds=0\n",
		},
		{
			name: "yaml kebab key", file: "c.yaml", content: "replay:\n  log-level: warn\n",
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=1 log-level=warn quiet=false rounds=0\n",
		},
		{
			name: "yaml snake key", file: "c.yaml", content: "log_level: debug\n",
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=1 log-level=debug quiet=false rounds=0\n",
		},
		{
			name: "toml nested section", file: "c.toml", content: "seed = 3\n[pet]\nseed = 4\n[pet.build]\nseed = 6\n",
			args: []string{"--config", "CONFIG", "pet", "build"}, want: "seed=6 log-level=info quiet=false\n",
		},
		{
			name: "yaml nested section", file: "c.yaml", content: "seed: 3\npet:\n  seed: 4\n  build:\n    seed: 6\n",
			args: []string{"--config", "CONFIG", "pet", "build"}, want: "seed=6 log-level=info quiet=false\n",
		},
		{
			name: "parent section applies to subcommand", file: "c.toml", content: "seed = 3\n[pet]\nseed = 4\n",
			args: []string{"--config", "CONFIG", "pet", "build"}, want: "seed=4 log-level=info quiet=false\n",
		},
		{
			name: "global flag in a command section", file: "c.toml", content: "[replay]\nquiet = true\n",
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=1 log-level=info quiet=true rounds=0\n",
		},
		{
			name: "global flag in another command's section", file: "c.toml", content: "[replay]\nquiet = true\n",
			args: []string{"--config", "CONFIG", "other"}, want: "seed=1 log-level=info quiet=false\n",
		},
		{
			name: "top-level key only one command uses", file: "c.toml", content: "rounds = 2\n",
			args: []string{"--config", "CONFIG", "other"}, want: "seed=1 log-level=info quiet=false\n",
		},
		{
			name: "top-level key for the command that uses it", file: "c.toml", content: "rounds = 2\n",
			args: []string{"--config", "CONFIG", "replay"}, want: "seed=1 log-level=info quiet=false rounds=2\n",
		},
		{
			name: "empty config", file: "c.yaml", content: "",
			args: []string{"--config", "CONFIG", "replay"}, want: defaults,
		},
		{
			name: "quiet from env",
			env:  map[string]string{"HCREPLAY_QUIET": "true"},
			args: []string{"replay"}, want: "seed=1 log-level=info quiet=true rounds=0\n",
		},
		{
			name: "HCREPLAY_VERSION and HCREPLAY_CONFIG are ignored",
			env:  map[string]string{"HCREPLAY_VERSION": "1", "HCREPLAY_CONFIG": "/nonexistent.toml"},
			args: []string{"replay"}, want: defaults,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			_, args := configArgs(t, tt.file, tt.content, tt.args)
			code, stdout, stderr := runTest(t, args...)
			if code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			if stdout != tt.want {
				t.Errorf("stdout = %q, want %q", stdout, tt.want)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	isolateEnv(t)
	tests := []struct {
		name      string
		file      string
		content   string // ignored when missing is set
		missing   bool   // do not create the file
		args      []string
		stderrHas []string // besides "hcreplay: " and the file's path
	}{
		{
			name: "unknown top-level key", file: "c.toml", content: "sead = 3\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "sead"`},
		},
		{
			name: "unknown key in a section", file: "c.toml", content: "[replay]\nsead = 3\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "replay.sead"`},
		},
		{
			name: "unknown key in another command's section", file: "c.toml", content: "[pet.build]\nsead = 3\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "pet.build.sead"`},
		},
		{
			name: "unknown yaml key in a nested section", file: "c.yaml", content: "pet:\n  build:\n    sead: 3\n",
			args: []string{"--config", "CONFIG", "pet", "build"}, stderrHas: []string{`unknown key "pet.build.sead"`},
		},
		{
			name: "unknown section", file: "c.toml", content: "[nosuch]\nseed = 3\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "nosuch"`},
		},
		{
			name: "flag of a different command", file: "c.toml", content: "[other]\nrounds = 2\n",
			args: []string{"--config", "CONFIG", "other"}, stderrHas: []string{`unknown key "other.rounds"`},
		},
		{
			name: "every unknown key is named", file: "c.toml", content: "aaa = 1\nzzz = 2\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`"aaa"`, `"zzz"`},
		},
		{
			name: "version is command-line only", file: "c.toml", content: "version = true\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "version"`},
		},
		{
			name: "config is command-line only", file: "c.yaml", content: "config: other.yaml\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "config"`},
		},
		{
			name: "help is not a key", file: "c.yaml", content: "help: true\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`unknown key "help"`},
		},
		{
			name: "command name with a scalar value", file: "c.toml", content: "replay = 5\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`key "replay" names a command`},
		},
		{
			name: "kebab and snake spelling of one key", file: "c.yaml", content: "log-level: warn\nlog_level: debug\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{`"log-level" and "log_level"`},
		},
		{
			name: "value of the wrong type", file: "c.toml", content: "[replay]\nseed = \"abc\"\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"--seed", `"abc"`, `key "replay.seed"`},
		},
		{
			name: "value outside the enum", file: "c.toml", content: "[replay]\nlog-level = \"loud\"\n",
			args:      []string{"--config", "CONFIG", "replay"},
			stderrHas: []string{"--log-level", `must be one of "debug","info","warn","error" but got "loud"`, `key "replay.log-level"`},
		},
		{
			name: "list with a value outside the enum", file: "c.yaml", content: "modes: [a, c, b]\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"--modes", `must be one of "a","b" but got "c"`, `key "modes"`},
		},
		{
			name: "malformed toml", file: "c.toml", content: "seed = = 3\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"parse config", "c.toml:1:8:"},
		},
		{
			name: "malformed yaml", file: "c.yaml", content: "seed: [1\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"parse config", "line 1"},
		},
		{
			name: "yaml that is not a table", file: "c.yaml", content: "- 1\n- 2\n",
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"parse config"},
		},
		{
			name: "missing file", file: "missing.toml", missing: true,
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"read config", "no such file"},
		},
		{
			name: "unsupported format", file: "c.json", content: `{"seed": 3}`,
			args: []string{"--config", "CONFIG", "replay"}, stderrHas: []string{"unknown format"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, args := configArgs(t, tt.file, tt.content, tt.args)
			if tt.missing {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := runTest(t, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("command ran; stdout:\n%s", stdout)
			}
			for _, s := range append([]string{"hcreplay: ", path}, tt.stderrHas...) {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr has a stack trace:\n%s", stderr)
			}
			if strings.Contains(stderr, "--help") {
				t.Errorf("stderr has a usage hint, which cannot help with a config file:\n%s", stderr)
			}
		})
	}
}

// TestEnvEnum checks that a value from an environment variable outside a flag's enum is refused
// with the variable named, as a value of the wrong type is, and that the command line still
// wins over a bad variable.
func TestEnvEnum(t *testing.T) {
	isolateEnv(t)
	tests := []struct {
		name      string
		env       map[string]string
		args      []string
		wantCode  int
		stderrHas []string
		stdout    string
	}{
		{
			name: "value outside the enum", env: map[string]string{"HCREPLAY_LOG_LEVEL": "loud"}, args: []string{"replay"}, wantCode: 2,
			stderrHas: []string{"--log-level", `must be one of "debug","info","warn","error" but got "loud"`, `HCREPLAY_LOG_LEVEL="loud"`},
		},
		{
			name: "list with a value outside the enum", env: map[string]string{"HCREPLAY_MODES": "a,c"}, args: []string{"replay"}, wantCode: 2,
			stderrHas: []string{"--modes", `must be one of "a","b" but got "c"`, `HCREPLAY_MODES="a,c"`},
		},
		{
			name: "wrong type, as kong words it", env: map[string]string{"HCREPLAY_SEED": "abc"}, args: []string{"replay"}, wantCode: 2,
			stderrHas: []string{"--seed", `HCREPLAY_SEED="abc"`},
		},
		{
			name: "the command line wins", env: map[string]string{"HCREPLAY_LOG_LEVEL": "loud"}, args: []string{"replay", "--log-level", "warn"},
			stdout: "seed=1 log-level=warn quiet=false rounds=0\n",
		},
		{
			name: "a good value", env: map[string]string{"HCREPLAY_LOG_LEVEL": "debug", "HCREPLAY_MODES": "b,a"}, args: []string{"replay"},
			stdout: "seed=1 log-level=debug quiet=false rounds=0\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			code, stdout, stderr := runTest(t, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			if stdout != tt.stdout {
				t.Errorf("stdout = %q, want %q", stdout, tt.stdout)
			}
			for _, s := range tt.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
}
