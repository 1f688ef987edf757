package slurm

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/sweep"
)

// TestResubmit: --resume resubmits the shards neither done nor active, cancels a merge job that
// waits for them, refuses while a shard or (with nothing to resubmit) the merge job still runs,
// and does nothing once every shard is done and merged. The wants are read off the cases.
func TestResubmit(t *testing.T) {
	done := ShardStatus{Done: true, State: "DONE"}
	failed := func(n int) ShardStatus { return ShardStatus{N: n, State: "FAILED"} }
	running := ShardStatus{N: 2, Job: "12_2", Active: true, State: "RUNNING"}
	cases := []struct {
		name string
		st   Status
		want Resubmission
		err  string // a part of the refusal, "" for none
	}{
		{"all merged", Status{Shards: []ShardStatus{done, done}, Merged: true}, Resubmission{Nothing: true}, ""},
		{"two failed", Status{Shards: []ShardStatus{failed(1), done, failed(3)}}, Resubmission{Shards: []int{1, 3}}, ""},
		{"failed, merge waits", Status{Shards: []ShardStatus{failed(1)}, MergeJob: "13", MergeActive: true, MergeState: "PENDING", MergeReason: "DependencyNeverSatisfied"},
			Resubmission{Shards: []int{1}, CancelMerge: true}, ""},
		{"done, merge pending", Status{Shards: []ShardStatus{done}, MergeJob: "13", MergeActive: true, MergeState: "PENDING", MergeReason: "Priority"},
			Resubmission{}, "the merge job 13 is still pending"},
		{"done, merge never to run", Status{Shards: []ShardStatus{done}, MergeJob: "13", MergeActive: true, MergeState: "PENDING", MergeReason: "DependencyNeverSatisfied"},
			Resubmission{CancelMerge: true}, ""},
		{"done, not merged", Status{Shards: []ShardStatus{done}}, Resubmission{}, ""},
		{"one running", Status{Shards: []ShardStatus{failed(1), running}}, Resubmission{}, "shard 2 is still running (job 12_2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Resubmit(&c.st)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !errors.As(err, new(sweep.InputError)) {
					t.Errorf("error %v, want an input error with %q", err, c.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("Resubmit = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}
