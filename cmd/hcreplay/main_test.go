package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/report"
)

// testCLI drives execute with commands that exist only in tests, so these
// tests exercise the machinery without depending on the real commands.
type testCLI struct {
	Globals

	Replay   replayCmd   `cmd:""`
	Other    seedCmd     `cmd:""`
	Pet      petCmd      `cmd:""`
	Panic    panicCmd    `cmd:""`
	BadInput badInputCmd `cmd:""`
	Fail     failCmd     `cmd:""`
	Wait     waitCmd     `cmd:""`
	Write    writeCmd    `cmd:""`
	Full     fullCmd     `cmd:""`
	Figure   figureCmd   `cmd:""`
}

// figureCmd saves a figure as --plot does; a path of no format it writes must exit 2.
type figureCmd struct {
	Path string `arg:""`
}

func (c figureCmd) Run() error { return report.SaveFigure(nil, vg.Centimeter, vg.Centimeter, c.Path) }

// writeCmd writes a file at Path as the commands write their outputs: an unmarked error from
// the operating system about the path must exit 2.
type writeCmd struct {
	Path string `arg:""`
}

func (c writeCmd) Run() error {
	return atomicfile.Write(c.Path, func(io.Writer) error { return nil })
}

// fullCmd fails as a full disk does: not the user's path, an internal error.
type fullCmd struct{}

func (fullCmd) Run() error { return fmt.Errorf("write out/runs.parquet: %w", syscall.ENOSPC) }

type seedCmd struct {
	Seed     int    `default:"1"`
	LogLevel string `default:"info" enum:"debug,info,warn,error"`
}

func (c *seedCmd) Run(con *Console) error {
	fmt.Fprintf(con.Stdout, "seed=%d log-level=%s quiet=%t\n", c.Seed, c.LogLevel, con.Quiet)
	return nil
}

// replayCmd has a flag, --rounds, that no other test command has.
type replayCmd struct {
	Seed     int    `default:"1"`
	LogLevel string `default:"info" enum:"debug,info,warn,error"`
	Rounds   int
	Modes    []string `default:"a" enum:"a,b"`
}

func (c *replayCmd) Run(con *Console) error {
	fmt.Fprintf(con.Stdout, "seed=%d log-level=%s quiet=%t rounds=%d\n", c.Seed, c.LogLevel, con.Quiet, c.Rounds)
	return nil
}

type petCmd struct {
	Build seedCmd `cmd:""`
}

type panicCmd struct{}

func (panicCmd) Run() error { panic("boom") }

type badInputCmd struct {
	Wrapped bool
}

func (c badInputCmd) Run() error {
	err := badInput(errors.New(`trace t.csv: line 3: arrival "x" is not a number`))
	if c.Wrapped {
		return fmt.Errorf("replay: %w", err)
	}
	return err
}

type failCmd struct{}

func (failCmd) Run() error { return errors.New("write out/runs.parquet: disk full") }

// waitCmd interrupts its own process and waits for the context to end.
type waitCmd struct{}

func (waitCmd) Run(ctx context.Context) error {
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		return err
	}
	if err := p.Signal(os.Interrupt); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return fmt.Errorf("stopped: %w", ctx.Err())
	case <-time.After(5 * time.Second):
		return errors.New("context not cancelled by SIGINT")
	}
}

// runTest runs the test CLI with args and returns the exit status and output.
func runTest(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	var cli testCLI
	code = execute(&cli, &cli.Globals, args, &out, &errOut, nil)
	return code, out.String(), errOut.String()
}

// runReal runs the real CLI with args.
func runReal(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// isolateEnv unsets the HCREPLAY_* variables of the developer's shell for
// the duration of the test.
func isolateEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "HCREPLAY_") {
			t.Setenv(k, v) // restores it after the test
			os.Unsetenv(k)
		}
	}
}

func TestRealCLI(t *testing.T) {
	isolateEnv(t)
	versionLine := "hcreplay " + buildVersion() + "\n"
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string   // exact, if not empty
		stdoutHas  []string // substrings of stdout
		stderrHas  []string // substrings of stderr
	}{
		{name: "version flag", args: []string{"--version"}, wantStdout: versionLine},
		{name: "short version flag", args: []string{"-V"}, wantStdout: versionLine},
		{name: "version command", args: []string{"version"}, wantStdout: versionLine},
		{
			name:      "help",
			args:      []string{"--help"},
			stdoutHas: []string{"Usage: hcreplay <command>", "scheduling heuristics", "version", "Print the version.", "--config=FILE", "--quiet"},
		},
		{name: "command help", args: []string{"version", "--help"}, stdoutHas: []string{"Usage: hcreplay version"}},
		{
			name:      "unknown flag",
			args:      []string{"--bogus"},
			wantCode:  2,
			stderrHas: []string{"hcreplay: unknown flag --bogus", `Run "hcreplay --help"`},
		},
		{
			name:      "unknown flag after command",
			args:      []string{"version", "--bogus"},
			wantCode:  2,
			stderrHas: []string{"unknown flag --bogus", `Run "hcreplay version --help"`},
		},
		{name: "unknown command", args: []string{"bogus"}, wantCode: 2, stderrHas: []string{"bogus"}},
		{name: "no command", args: nil, wantCode: 2, stderrHas: []string{"hcreplay: expected"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runReal(t, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			if tt.wantStdout != "" && stdout != tt.wantStdout {
				t.Errorf("stdout = %q, want %q", stdout, tt.wantStdout)
			}
			for _, s := range tt.stdoutHas {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tt.wantCode == 0 && stderr != "" {
				t.Errorf("unexpected stderr:\n%s", stderr)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	isolateEnv(t)
	tests := []struct {
		name       string
		args       []string
		debug      bool
		wantCode   int
		wantStderr string   // exact, if not empty
		stderrHas  []string // substrings of stderr
		stderrLack []string
	}{
		{
			name:       "success",
			args:       []string{"other"},
			wantCode:   0,
			stderrLack: []string{"hcreplay"},
		},
		{
			name:       "panic",
			args:       []string{"panic"},
			wantCode:   1,
			wantStderr: "hcreplay: internal error: boom\n",
		},
		{
			name:      "panic with HCREPLAY_DEBUG=1",
			args:      []string{"panic"},
			debug:     true,
			wantCode:  1,
			stderrHas: []string{"hcreplay: internal error: boom", "goroutine", "main_test.go"},
		},
		{
			name:       "bad input",
			args:       []string{"bad-input"},
			wantCode:   2,
			wantStderr: "hcreplay: trace t.csv: line 3: arrival \"x\" is not a number\n",
		},
		{
			name:       "wrapped bad input",
			args:       []string{"bad-input", "--wrapped"},
			wantCode:   2,
			wantStderr: "hcreplay: replay: trace t.csv: line 3: arrival \"x\" is not a number\n",
		},
		{
			name:       "plain error",
			args:       []string{"fail"},
			wantCode:   1,
			wantStderr: "hcreplay: write out/runs.parquet: disk full\n",
		},
		{
			name:       "output in a missing folder",
			args:       []string{"write", "/nonexistent-hcreplay-folder/x.png"},
			wantCode:   2,
			wantStderr: "hcreplay: create /nonexistent-hcreplay-folder/x.png: no such file or directory\n",
		},
		{
			name:       "output under a file",
			args:       []string{"write", "/dev/null/x.png"},
			wantCode:   2,
			wantStderr: "hcreplay: create /dev/null/x.png: not a directory\n",
		},
		{
			name:       "figure of no format we write",
			args:       []string{"figure", "x.bogus"},
			wantCode:   2,
			wantStderr: "hcreplay: figure x.bogus: unknown format \".bogus\": want .png, .svg or .pdf\n",
		},
		{
			name:       "full disk",
			args:       []string{"full"},
			wantCode:   1,
			wantStderr: "hcreplay: write out/runs.parquet: no space left on device\n",
		},
		{
			name:       "SIGINT cancels the context",
			args:       []string{"wait"},
			wantCode:   130,
			wantStderr: "hcreplay: interrupted\n",
		},
		{
			name:      "bad flag value",
			args:      []string{"replay", "--seed", "x"},
			wantCode:  2,
			stderrHas: []string{"hcreplay: --seed", `"x"`, `Run "hcreplay replay --help"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.debug {
				t.Setenv("HCREPLAY_DEBUG", "1")
			}
			code, _, stderr := runTest(t, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			if tt.wantStderr != "" && stderr != tt.wantStderr {
				t.Errorf("stderr = %q, want %q", stderr, tt.wantStderr)
			}
			for _, s := range tt.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			for _, s := range tt.stderrLack {
				if strings.Contains(stderr, s) {
					t.Errorf("stderr has %q:\n%s", s, stderr)
				}
			}
		})
	}
}

// TestRepeatedFlag: a flag of one value given twice on the command line is a usage error (kong
// would keep the last without a word), and a value from the environment or a config file beside
// the flag is not a repeat: the flag wins, as it does alone. A bool flag without a --no- form
// means the same however often it is given.
func TestRepeatedFlag(t *testing.T) {
	isolateEnv(t)
	config := filepath.Join(t.TempDir(), "c.yaml")
	writeFile(t, config, "seed: 7\n")
	for _, c := range []struct {
		name     string
		args     []string
		env      string // HCREPLAY_SEED
		wantCode int
		want     string // in stdout when 0, in stderr otherwise
	}{
		{"twice", []string{"replay", "--seed", "1", "--seed", "2"}, "", 2, "--seed is given more than once: it takes one value"},
		{"twice with =", []string{"replay", "--seed=1", "--rounds", "3", "--seed=1"}, "", 2, `Run "hcreplay replay --help"`},
		{"in a subcommand", []string{"pet", "build", "--log-level", "warn", "--log-level", "debug"}, "", 2, `--log-level is given more than once`},
		{"once, beside the environment", []string{"replay", "--seed", "2"}, "3", 0, "seed=2 "},
		{"once, beside a config file", []string{"replay", "--config", config, "--seed", "2"}, "", 0, "seed=2 "},
		{"a plain bool twice", []string{"-q", "replay", "-q"}, "", 0, "quiet=true"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.env != "" {
				t.Setenv("HCREPLAY_SEED", c.env)
			}
			code, stdout, stderr := runTest(t, c.args...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", code, c.wantCode, stderr)
			}
			if got := map[bool]string{true: stdout, false: stderr}[code == 0]; !strings.Contains(got, c.want) {
				t.Errorf("output %q lacks %q", got, c.want)
			}
		})
	}
}

func TestBadInputNil(t *testing.T) {
	if err := badInput(nil); err != nil {
		t.Errorf("badInput(nil) = %v, want nil", err)
	}
}

func TestConsoleLogf(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		var errOut bytes.Buffer
		con := &Console{Stderr: &errOut, Quiet: quiet}
		con.Logf("replayed %d tasks", 3)
		want := "replayed 3 tasks\n"
		if quiet {
			want = ""
		}
		if got := errOut.String(); got != want {
			t.Errorf("quiet=%t: Logf wrote %q, want %q", quiet, got, want)
		}
	}
}

// TestNegativeValues: a negative seed is refused in words a user can act on, whether written
// "--seed -1" (which kong would read as a short flag) or "--seed=-1", and a negative value of
// a signed flag reaches the command's own check instead of a parser complaint about short flags.
func TestNegativeValues(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--seed", "-1"},
		{"replay", "--seed=-1"},
		{"speculate", "--seed", "-3"},
		{"trace", "gen", "--seed", "-1"},
	} {
		code, _, errb := cli(t, args...)
		if code != exitUsage || !strings.Contains(errb, "seed must be ≥ 0") || strings.Contains(errb, "short flag") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and \"seed must be ≥ 0\"", args, code, errb)
		}
	}
}
