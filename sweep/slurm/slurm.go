// Package slurm runs a sweep on a Slurm cluster: it copies the grid with its paths made
// absolute (checking that the copy expands to the same runs), estimates the number of shards,
// writes the sbatch scripts (a job array of shards and a merge job that depends on it), submits
// them with sbatch, reads back what squeue and sacct say about them (Status), and merges the
// complete shards into runs.parquet (Merge); Prepare, SubmitShards and Resume are the steps of
// sweep --slurm's submission and --resume. It owns the layout of a Slurm sweep's folder and
// the scripts' text; the runs themselves are package sweep's, and the commands the scripts run
// come from its caller (cmd/hcreplay).
package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Files of a Slurm sweep's folder DIR.
const (
	GridFile   = "grid.yaml"     // the grid as submitted, its paths absolute
	StateFile  = "slurm.json"    // the submissions (State)
	ShardsDir  = "shards"        // DIR/shards/NNN: one sweep folder per shard
	LogsDir    = "logs"          // DIR/logs/shard-NNN.log, merge.log
	ArrayFile  = "shards.sbatch" // the job array's script
	MergeFile  = "merge.sbatch"  // the merge job's script
	ReportDir  = "report"        // the merge job's report
	mergeLog   = "merge.log"     //
	scriptMode = os.FileMode(0o755)
)

// ShardDir is the folder of shard i (1-based) of a sweep in dir.
func ShardDir(dir string, i int) string {
	return filepath.Join(dir, ShardsDir, fmt.Sprintf("%03d", i))
}

// ShardLog is the log file of shard i's array tasks (appended to by every attempt).
func ShardLog(dir string, i int) string {
	return filepath.Join(dir, LogsDir, fmt.Sprintf("shard-%03d.log", i))
}

// MergeLog is the merge job's log file.
func MergeLog(dir string) string { return filepath.Join(dir, LogsDir, mergeLog) }

// Plan is what the scripts of a sweep say.
type Plan struct {
	Dir    string   // the sweep's folder, absolute
	Shards int      // how many
	Opts   []Opt    // #SBATCH lines of both jobs, in order
	Shard  []string // the command of an array task: {i}, {shard} and {cpus} are the shell's
	Merge  []string // the merge job's commands, one per line
}

// Opt is one #SBATCH option, --Name=Value (Value "" for a flag without one).
type Opt struct{ Name, Value string }

func (o Opt) String() string {
	if o.Value == "" {
		return "--" + o.Name
	}
	return "--" + o.Name + "=" + o.Value
}

// reserved are the options the scripts set themselves: a --slurm-opt of one of them would
// break the sweep's layout (logs, the array, the dependency).
var reserved = map[string]string{
	"array": "--slurm-shards", "output": "the logs in DIR/logs", "error": "the logs in DIR/logs",
	"open-mode": "the logs in DIR/logs", "dependency": "the merge job", "job-name": "the scripts",
	"wrap": "the scripts", "parsable": "the submission",
}

// ParseOpt reads a --slurm-opt value: NAME=VALUE or NAME (a leading -- is allowed), e.g.
// partition=short, time=00:30:00, cpus-per-task=8, mem=4G, account=proj.
func ParseOpt(s string) (Opt, error) {
	name, value, _ := strings.Cut(strings.TrimPrefix(s, "--"), "=")
	name = strings.TrimSpace(name)
	switch {
	case name == "" || strings.ContainsAny(name, " \t\n'\"$`\\") || strings.HasPrefix(name, "-"):
		return Opt{}, fmt.Errorf("--slurm-opt %q: want NAME=VALUE, e.g. partition=short or time=00:30:00", s)
	case strings.ContainsAny(value, "\n\r"):
		return Opt{}, fmt.Errorf("--slurm-opt %q: a value must be one line", s)
	}
	if why, ok := reserved[name]; ok {
		return Opt{}, fmt.Errorf("--slurm-opt %s: hcreplay sets --%s itself (%s)", s, name, why)
	}
	return Opt{name, value}, nil
}

// CPUsPerTask is the --cpus-per-task of opts, 1 when none is given.
func CPUsPerTask(opts []Opt) int {
	n := 1
	for _, o := range opts {
		if o.Name == "cpus-per-task" || o.Name == "c" {
			if v, err := strconv.Atoi(o.Value); err == nil && v > 0 {
				n = v
			}
		}
	}
	return n
}

// quote is s as one word of a POSIX shell: a placeholder {i} or {n} is left to the shell's
// variables.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// placeholders are the words of a Plan's commands that the array task's shell fills in.
var placeholders = []struct{ word, shell string }{
	{"{i}", `"$i"`},                           // the shard number, 1-based
	{"{shard}", `"$shard"`},                   // the same, three digits: 007
	{"{cpus}", `"${SLURM_CPUS_PER_TASK:-1}"`}, // the CPUs Slurm gave the task
}

// command is args as a shell command line, each word quoted, with the placeholders in them
// left to the shell.
func command(args []string) string {
	words := make([]string, len(args))
	for k, a := range args {
		words[k] = word(a)
	}
	return strings.Join(words, " ")
}

// word is a quoted, with its first placeholder (and those after it) left to the shell.
func word(a string) string {
	for _, p := range placeholders {
		if before, after, ok := strings.Cut(a, p.word); ok {
			w := p.shell
			if before != "" {
				w = quote(before) + w
			}
			if after != "" {
				w += word(after)
			}
			return w
		}
	}
	return quote(a)
}

// ArrayScript is the job array's script: array task i (1 to Shards; sbatch --array on the
// command line picks which) runs shard i into DIR/shards/NNN, appending to DIR/logs/shard-NNN.log.
func (p *Plan) ArrayScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	b.WriteString("# hcreplay sweep on Slurm: one array task per shard. Submitted by hcreplay sweep --slurm;\n")
	b.WriteString("# hcreplay sweep --slurm --status DIR tells how far it got.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=hcreplay-shards\n")
	fmt.Fprintf(&b, "#SBATCH --array=1-%d\n", p.Shards)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(p.Dir, LogsDir, "shard-%3a.log"))
	fmt.Fprintf(&b, "#SBATCH --open-mode=append\n")
	for _, o := range p.Opts {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	b.WriteString("set -eu\n")
	b.WriteString("i=$SLURM_ARRAY_TASK_ID\n")
	b.WriteString("shard=$(printf %03d \"$i\")\n")
	fmt.Fprintf(&b, "echo \"hcreplay: shard $i/%d, job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} on $(hostname), $(date -u +%%FT%%TZ)\"\n", p.Shards)
	fmt.Fprintf(&b, "exec %s\n", command(p.Shard))
	return b.String()
}

// MergeScript is the merge job's script.
func (p *Plan) MergeScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	b.WriteString("# hcreplay sweep on Slurm: merges the shards once all of them succeeded (afterok).\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=hcreplay-merge\n")
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", MergeLog(p.Dir))
	fmt.Fprintf(&b, "#SBATCH --open-mode=append\n")
	for _, o := range p.Opts {
		fmt.Fprintf(&b, "#SBATCH %s\n", o)
	}
	b.WriteString("set -eu\n")
	b.WriteString("echo \"hcreplay: merge, job $SLURM_JOB_ID on $(hostname), $(date -u +%FT%TZ)\"\n")
	for _, c := range p.Merge {
		fmt.Fprintf(&b, "%s\n", c)
	}
	return b.String()
}

// Command is args as one line of a script.
func Command(args ...string) string { return command(args) }

// Submission is one sbatch of the array (of some shards) and of the merge job after it.
type Submission struct {
	Array  string `json:"array"`  // the array's job id
	Shards []int  `json:"shards"` // the array task ids (shard numbers) submitted
	Merge  string `json:"merge"`  // the merge job's id
}

// State is DIR/slurm.json: the sweep's shard count and its submissions, the latest last.
type State struct {
	Shards      int          `json:"shards"`
	Submissions []Submission `json:"submissions"`
}

// ReadState reads DIR/slurm.json.
func ReadState(dir string) (*State, error) {
	b, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s has no %s: it is not the folder of a sweep submitted with --slurm", dir, StateFile)
		}
		return nil, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil || s.Shards < 1 {
		return nil, fmt.Errorf("%s: not a state file of hcreplay sweep --slurm (%v)", filepath.Join(dir, StateFile), err)
	}
	return &s, nil
}

// Last is the latest submission of shard i (the array's job id and the task's), or "" if none.
func (s *State) Last(i int) string {
	for k := len(s.Submissions) - 1; k >= 0; k-- {
		sub := s.Submissions[k]
		for _, j := range sub.Shards {
			if j == i {
				return sub.Array + "_" + strconv.Itoa(i)
			}
		}
	}
	return ""
}

// Ranges is ids as an sbatch --array list: 1-3,5,7-8.
func Ranges(ids []int) string {
	ids = append([]int(nil), ids...)
	sort.Ints(ids)
	var parts []string
	for k := 0; k < len(ids); {
		j := k
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j == k {
			parts = append(parts, strconv.Itoa(ids[k]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[k], ids[j]))
		}
		k = j + 1
	}
	return strings.Join(parts, ",")
}

// ErrNoSlurm says sbatch is not on PATH.
//
//lint:ignore ST1005 Slurm is a proper noun, and the message starts with it.
var ErrNoSlurm = errors.New("Slurm was not found (no sbatch on PATH): run on a machine of the cluster, or add --dry-run to print the scripts without submitting them")

// Sbatch submits script with extra command-line options and returns the job id
// (sbatch --parsable prints "id" or "id;cluster").
func Sbatch(ctx context.Context, script string, extra ...string) (string, error) {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return "", ErrNoSlurm
	}
	args := append([]string{"--parsable"}, extra...)
	out, err := exec.CommandContext(ctx, "sbatch", append(args, script)...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("sbatch %s %s: %s", strings.Join(args, " "), script, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("sbatch %s: %w", script, err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s: want a job id, got %q", script, out)
	}
	return id, nil
}

// Job is what squeue or sacct says of a job or array task.
type Job struct {
	ID     string // 12 or 12_3
	State  string // PENDING, RUNNING, FAILED, CANCELLED, ...
	Reason string // squeue's: Dependency, DependencyNeverSatisfied, ...
}

// Queue is what squeue (jobs waiting or running) and sacct (jobs ended, when accounting is on)
// say of the jobs ids, by job id (12, or 12_3 for an array task). It is empty when neither
// command is there or works: the caller then knows only what the files say.
func Queue(ctx context.Context, ids []string) map[string]Job {
	jobs := map[string]Job{}
	if len(ids) == 0 {
		return jobs
	}
	list := strings.Join(ids, ",")
	if out, err := exec.CommandContext(ctx, "sacct", "-n", "-P", "-X", "-j", list, "-o", "JobID,State").Output(); err == nil {
		for _, j := range parseLines(string(out), "|") {
			jobs[j.ID] = j
		}
	}
	// squeue is the word on jobs still there: sacct may lag.
	// All jobs, not -j list: squeue fails on the id of a job it no longer knows. -t all: also
	// those ended in the last MinJobAge (FAILED, CANCELLED, TIMEOUT) when sacct is off.
	if out, err := exec.CommandContext(ctx, "squeue", "-h", "-r", "-t", "all", "-o", "%i|%T|%r").Output(); err == nil {
		for _, j := range parseLines(string(out), "|") {
			jobs[j.ID] = j
		}
	}
	return jobs
}

// parseLines reads lines of ID|STATE[|REASON]. sacct's states may carry "by UID" (CANCELLED
// by 0): the first word is the state.
func parseLines(out, sep string) []Job {
	var jobs []Job
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(strings.TrimSpace(line), sep)
		if len(f) < 2 || f[0] == "" {
			continue
		}
		j := Job{ID: f[0], State: strings.Fields(f[1] + " ")[0]}
		if len(f) > 2 {
			j.Reason = f[2]
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// Active says whether a job state is one of a job not yet ended.
func Active(state string) bool {
	switch state {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED", "STAGE_OUT", "SIGNALING":
		return true
	}
	return false
}

// Scancel cancels a job; errors are returned for the caller to report.
func Scancel(ctx context.Context, id string) error {
	out, err := exec.CommandContext(ctx, "scancel", id).CombinedOutput()
	if err != nil {
		return fmt.Errorf("scancel %s: %v %s", id, err, strings.TrimSpace(string(out)))
	}
	return nil
}
