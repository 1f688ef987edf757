package slurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Submit submits the array tasks of shards (none: only the merge job) and the merge job
// after them. The returned submission holds the ids of what was submitted, also on an error.
func Submit(ctx context.Context, dir string, shards []int) (Submission, error) {
	sub := Submission{Shards: shards}
	var after []string
	if len(shards) > 0 {
		id, err := Sbatch(ctx, filepath.Join(dir, ArrayFile), "--array="+Ranges(shards))
		if err != nil {
			return sub, err
		}
		sub.Array = id
		after = append(after, "--dependency=afterok:"+id)
	}
	id, err := Sbatch(ctx, filepath.Join(dir, MergeFile), after...)
	if err != nil {
		return sub, fmt.Errorf("%w; the shards were submitted as job %s: hcreplay sweep --slurm --resume --out %s submits the merge again", err, sub.Array, dir)
	}
	sub.Merge = id
	return sub, nil
}

// CheckEmptyDir refuses a folder that holds anything: a --slurm sweep's files would mix with it.
func CheckEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, StateFile)); err == nil {
		return fmt.Errorf("%s holds a sweep submitted with --slurm: hcreplay sweep --slurm --status %s tells how far it is, --slurm --resume --out %s resubmits what failed; or give another --out", dir, dir, dir)
	}
	return fmt.Errorf("--out %s is not empty: a --slurm sweep needs a folder of its own", dir)
}
