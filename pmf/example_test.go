package pmf_test

import (
	"fmt"

	"github.com/hcreplay/hcreplay/pmf"
)

// A machine is idle at time 100. Two tasks are queued: the first takes 10 or 30 ms and is due at
// 125; the second takes 10 ms and is due at 125 too. When the first runs long, the second cannot
// make it under either model; what differs is when the machine is free again. Under none the
// first runs to 130 and the second to 140. Under evict the first is killed at its deadline 125;
// the chains split that kill between the grid points 120 and 130 around it, half each, so that
// the machine frees at 125 on average. The second, in truth due already, then starts at 120 in
// the half that frees there, runs past 125 and is killed too, its half split again: the machine
// is free at 120 with 1/2 + 1/8 and at 130 with 1/4 + 1/8 (mean 123.75, where the queue frees
// at 122.5; with the kill on the next grid point it was 125).
func ExampleAppend() {
	idle := pmf.Impulse(100, 10)
	first, _ := pmf.New(10, 10, []float64{0.5, 0, 0.5}) // 10 or 30
	second, _ := pmf.New(10, 10, []float64{1})          // 10
	for _, model := range []pmf.Model{pmf.None, pmf.Evict} {
		c1, s1, _ := pmf.Append(model, idle, first, 125, false)
		c2, s2, _ := pmf.Append(model, c1, second, 125, false)
		fmt.Printf("%-5v first %.2f second %.2f, machine free at %v\n", model, s1, s2, times(c2))
	}
	// Output:
	// none  first 0.50 second 0.50, machine free at [120:0.5 140:0.5]
	// evict first 0.50 second 0.50, machine free at [120:0.625 130:0.375]
}

func times(d pmf.PMF) []string {
	var out []string
	for k := 0; k < d.Len(); k++ {
		if d.Prob(k) > 0 {
			out = append(out, fmt.Sprintf("%g:%g", d.Time(k), d.Prob(k)))
		}
	}
	return out
}

// The success chance of a task behind a busy machine, without building the convolution.
func ExampleSuccessCDF() {
	busyUntil, _ := pmf.New(100, 10, []float64{0.25, 0.5, 0.25}) // free at 100, 110 or 120
	exec, _ := pmf.New(20, 10, []float64{0.5, 0.5})              // takes 20 or 30
	fmt.Printf("%.4f\n", pmf.SuccessCDF(exec, busyUntil.CDFTable(), 135, false))
	// Output: 0.5000
}
