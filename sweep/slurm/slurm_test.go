package slurm

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestCommandQuoting runs the quoted words through a real shell, the oracle: each word comes
// back as it was, a placeholder as the shell variable's value.
func TestCommandQuoting(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	words := []string{"plain", "with space", "it's", `dollar $HOME`, "back`tick`", `quote"d`, "", "/a/b/{shard}/c", "{i}/7", "x{i}y{shard}z", "-j", "{cpus}"}
	line := command(append([]string{"printf", "%s\\n"}, words...))
	script := "i=3; shard=003; SLURM_CPUS_PER_TASK=8; " + line
	out, err := exec.Command("sh", "-c", script).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", script, err)
	}
	want := []string{"plain", "with space", "it's", "dollar $HOME", "back`tick`", `quote"d`, "", "/a/b/003/c", "3/7", "x3y003z", "-j", "8"}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if !slices.Equal(got, want) {
		t.Errorf("the shell read\n%q\nwant\n%q\n(line %s)", got, want, line)
	}
}

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want string
	}{
		{[]int{1}, "1"},
		{[]int{1, 2, 3}, "1-3"},
		{[]int{5, 1, 2, 7, 8, 3}, "1-3,5,7-8"},
		{[]int{2, 4, 6}, "2,4,6"},
	} {
		if got := Ranges(c.ids); got != c.want {
			t.Errorf("Ranges(%v) = %s, want %s", c.ids, got, c.want)
		}
	}
}

func TestParseOpt(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{"partition=short", "--partition=short", ""},
		{"--time=01:00:00", "--time=01:00:00", ""},
		{"hold", "--hold", ""},
		{"constraint=a&b", "--constraint=a&b", ""},
		{"array=1-9", "", "--slurm-shards"},
		{"output=x.log", "", "logs"},
		{"dependency=afterok:1", "", "merge job"},
		{"=x", "", "NAME=VALUE"},
		{"bad name=x", "", "NAME=VALUE"},
		{"time=1\n#SBATCH --x", "", "one line"},
	} {
		o, err := ParseOpt(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("ParseOpt(%q): %v", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseOpt(%q) = %v, %v; want an error saying %q", c.in, o, err, c.err)
		case c.err == "" && o.String() != c.want:
			t.Errorf("ParseOpt(%q) = %s, want %s", c.in, o, c.want)
		}
	}
}

func TestCPUsPerTask(t *testing.T) {
	if n := CPUsPerTask([]Opt{{"partition", "x"}}); n != 1 {
		t.Errorf("no cpus-per-task: %d, want 1", n)
	}
	if n := CPUsPerTask([]Opt{{"cpus-per-task", "8"}}); n != 8 {
		t.Errorf("cpus-per-task=8: %d", n)
	}
}

func TestParseLines(t *testing.T) {
	jobs := parseLines("12_1|RUNNING|None\n12_2|CANCELLED by 0\n13|PENDING|DependencyNeverSatisfied\n\n", "|")
	want := []Job{{"12_1", "RUNNING", "None"}, {"12_2", "CANCELLED", ""}, {"13", "PENDING", "DependencyNeverSatisfied"}}
	if !slices.Equal(jobs, want) {
		t.Errorf("got %v, want %v", jobs, want)
	}
}
