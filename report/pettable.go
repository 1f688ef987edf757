package report

import (
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/hcreplay/hcreplay/petbuild"
)

// WritePETTable writes each cell of pet as a row, its mean, sample mean, spread, p95, impulses,
// samples and notes (what `pet show` prints), then a line of the matrix's size, step and unit.
// A sample count or sample mean the file does not carry shows as a dash.
func WritePETTable(w io.Writer, pet *petbuild.PET) error {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}))
	t.Header("task type", "machine type", "mean", "sample mean", "std dev", "p95", "impulses", "samples", "notes")
	for _, s := range pet.Summaries() {
		samples, sampleMean := "–", "–"
		if s.Samples > 0 {
			samples = fmt.Sprint(s.Samples)
		}
		if s.SampleMean > 0 {
			sampleMean = fmt.Sprintf("%.2f", s.SampleMean)
		}
		if err := t.Append(s.TaskType, s.MachineType, fmt.Sprintf("%.2f", s.Mean), sampleMean, fmt.Sprintf("%.2f", s.StdDev),
			fmt.Sprintf("%.2f", s.P95), fmt.Sprint(s.Impulses), samples, s.Notes()); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d task types × %d machine types, step %g %s\n", pet.NumTaskTypes(), pet.NumMachineTypes(), pet.Step(), pet.TimeUnit())
	return err
}
