package importers

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/trace"
)

// Azure Functions 2019 (https://github.com/Azure/AzurePublicDataset,
// AzureFunctionsDataset2019.md) has, per day dNN, two CSV files with a
// header line that Import reads, told apart by their columns:
//
//	invocations_per_function_md.anon.dNN.csv    HashOwner, HashApp, HashFunction, Trigger,
//	                                            1 .. 1440 (invocations in each minute of the day)
//	function_durations_percentiles.anon.dNN.csv HashOwner, HashApp, HashFunction, Average, Count,
//	                                            Minimum, Maximum, percentile_Average_{0,1,25,50,75,99,100} (ms)
var azurePercentiles = []float64{0, 0.01, 0.25, 0.50, 0.75, 0.99, 1}

var azureDay = regexp.MustCompile(`\.d(\d+)\.`)

// azureMachineType is the one machine type of the Functions trace, which
// does not say what ran the functions.
const azureMachineType = "functions"

// importAzureFunctions maps the invocation counts to arrivals and the
// duration percentiles to execution records:
//
//	task type     HashFunction (TaskTypeField: app, owner or trigger)
//	machine type  "functions" (the trace has one pool)
//	arrival       each invocation of minute m of day d, placed uniformly at random inside
//	              the minute (seeded by Seed and the function); time zero is day 1, 00:00
//	exec time     min(Count, SamplesPerRow) samples of the function's percentile curve at
//	              evenly spaced quantiles, interpolating linearly between the percentiles;
//	              the percentiles are of 30-second averages, so the PET is narrower than
//	              the true one (the dataset's note 7)
//
// A sample keeps each invocation with the given probability; durations are
// not sampled. The day comes from ".dNN." in the file name (day 1 if none).
func importAzureFunctions(im *importer, in []importInput) error {
	field := strings.ToLower(orDefault(im.opt.TaskTypeField, "function"))
	ttCol := map[string]string{"function": "hashfunction", "app": "hashapp", "owner": "hashowner", "trigger": "trigger"}[field]
	if ttCol == "" {
		return fmt.Errorf("azure-functions: task type field %q: want function, app, owner or trigger", field)
	}
	if im.opt.MachineTypeField != "" {
		return fmt.Errorf("azure-functions: the trace has one machine type (%q); it takes no machine type field", azureMachineType)
	}
	kinds, err := classify(in, "an Azure Functions 2019 invocations or durations file (want a header with Trigger and 1..1440, or percentile_Average_0)",
		func(rec []string) string {
			h := newHeader(rec)
			switch {
			case h.col("trigger") >= 0 && h.col("1") >= 0:
				return "invocations"
			case h.col("percentile_average_0") >= 0:
				return "durations"
			}
			return ""
		})
	if err != nil {
		return err
	}
	triggers := map[string]string{} // function → trigger, for durations typed by trigger
	return inOrder(in, kinds, []string{"invocations", "durations"}, func(kind string, input importInput) error {
		if kind == "invocations" {
			return im.azureInvocations(input, ttCol, triggers)
		}
		return im.azureDurations(input, ttCol, triggers)
	})
}

// azureIDs reads owner, app and function of a row, and the task type.
func azureIDs(c *cells, h header, ttCol string, triggers map[string]string) (fn, tt string) {
	owner, app := c.text(h.col("hashowner"), "HashOwner"), c.text(h.col("hashapp"), "HashApp")
	fn = owner + "/" + app + "/" + c.text(h.col("hashfunction"), "HashFunction")
	switch {
	case !c.ok():
	case ttCol == "trigger" && h.col("trigger") < 0:
		if tt = triggers[fn]; tt == "" {
			c.fail(h.col("hashfunction"), "function not in the invocation files (its trigger is unknown)")
		}
	default:
		tt = c.text(h.col(ttCol), ttCol)
	}
	return fn, tt
}

func (im *importer) azureInvocations(input importInput, ttCol string, triggers map[string]string) error {
	day := 1
	if m := azureDay.FindStringSubmatch(path.Base(filepath.ToSlash(input.name))); m != nil {
		day, _ = strconv.Atoi(m[1])
	}
	minute := 60 * trace.Second.Factor(im.res.Unit)
	var h header
	var names []string
	var minutes []int // column of each minute
	return im.eachCSV(input, func(rec []string, line int) error {
		if h == nil {
			h = newHeader(rec)
			names = headerNames(h)
			for m := 1; m <= 1440; m++ {
				if i := h.col(strconv.Itoa(m)); i >= 0 {
					minutes = append(minutes, i)
				}
			}
			return nil
		}
		if err := im.row(); err != nil {
			return err
		}
		c := cells{file: input.name, line: line, rec: rec, names: names}
		fn, tt := azureIDs(&c, h, ttCol, triggers)
		if !c.ok() {
			im.bad(Skipped, c.reason, c.err)
			return nil
		}
		triggers[fn] = strings.TrimSpace(at(rec, h.col("trigger")))
		hash := fnv.New64a()
		fmt.Fprintf(hash, "%s/%d", fn, day)
		rng := rand.New(rand.NewPCG(im.opt.Seed, hash.Sum64()))
		for k, col := range minutes {
			n, err := strconv.Atoi(strings.TrimSpace(at(rec, col)))
			if err != nil || n < 0 {
				if strings.TrimSpace(at(rec, col)) != "" {
					c.fail(col, "invocation count not a non-negative integer")
				}
				continue
			}
			start := float64((day-1)*1440+k) * minute
			im.azureMinute(rng, tt, start, minute, n)
		}
		if !c.ok() {
			im.bad(PartlyUsed, c.reason, c.err)
		}
		return nil
	})
}

// azureMinute adds the n invocations of one minute.
func (im *importer) azureMinute(rng *rand.Rand, tt string, start, minute float64, n int) {
	if start+minute <= im.winFrom || start >= im.winTo {
		im.res.OutOfWindow += int64(n)
		return
	}
	for range n {
		if s := im.opt.Sample; s > 0 && s < 1 && rng.Float64() >= s {
			im.res.SampledOut++
			continue
		}
		if a := start + rng.Float64()*minute; im.inWindow(a) {
			im.task(tt, a, "", nil)
		}
	}
}

func (im *importer) azureDurations(input importInput, ttCol string, triggers map[string]string) error {
	var h header
	var names []string
	var pcts []int
	return im.eachCSV(input, func(rec []string, line int) error {
		if h == nil {
			h = newHeader(rec)
			names = headerNames(h)
			var err error
			pcts, err = h.require(input.name, line, "count", "percentile_average_0", "percentile_average_1", "percentile_average_25",
				"percentile_average_50", "percentile_average_75", "percentile_average_99", "percentile_average_100")
			return err
		}
		if err := im.row(); err != nil {
			return err
		}
		c := cells{file: input.name, line: line, rec: rec, names: names}
		fn, tt := azureIDs(&c, h, ttCol, triggers)
		count := c.number(pcts[0], "Count")
		q := make([]float64, len(azurePercentiles))
		for i := range q {
			q[i] = im.time(&c, pcts[i+1], "percentile")
			if c.ok() && (q[i] < 0 || (i > 0 && q[i] < q[i-1])) {
				c.fail(pcts[i+1], "percentiles negative or decreasing")
			}
		}
		if c.ok() && count < 1 {
			c.fail(pcts[0], "Count below 1")
		}
		if !c.ok() {
			im.bad(Skipped, c.reason, c.err)
			return nil
		}
		return im.azureSamples(&c, fn, tt, q, min(int(count), im.opt.SamplesPerRow))
	})
}

// azureSamples logs k samples of the percentile curve q at the quantiles
// (i+0.5)/k; samples of 0 ms are left out and reported.
func (im *importer) azureSamples(c *cells, fn, tt string, q []float64, k int) error {
	zero := false
	for i := range k {
		v := quantileAt(q, (float64(i)+0.5)/float64(k)) * im.srcScale
		if !(v > 0) {
			zero = true
			continue
		}
		rec := trace.LogRecord{TaskType: tt, MachineType: azureMachineType, ExecTime: v, TaskID: fn + "#" + strconv.Itoa(i), Start: nan(), End: nan()}
		if err := im.log(rec); err != nil {
			return err
		}
	}
	if zero {
		c.fail(-1, "percentiles of 0 ms (those samples left out)")
		im.bad(PartlyUsed, c.reason, c.err)
	}
	return nil
}

// quantileAt interpolates the percentile curve linearly at p.
func quantileAt(q []float64, p float64) float64 {
	for i := 1; i < len(azurePercentiles); i++ {
		if p <= azurePercentiles[i] {
			lo, hi := azurePercentiles[i-1], azurePercentiles[i]
			return q[i-1] + (q[i]-q[i-1])*(p-lo)/(hi-lo)
		}
	}
	return q[len(q)-1]
}

// Azure LLM inference 2023 (AzurePublicDataset, AzureLLMInferenceDataset2023.md):
// AzureLLMInferenceTrace_code.csv and _conv.csv, a header line
// TIMESTAMP,ContextTokens,GeneratedTokens and one request a line, TIMESTAMP
// a wall-clock time such as "2023-11-16 18:15:46.6805900".
var llmLayouts = []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999"}

// importAzureLLM maps each request to one arrival; the trace has no
// execution times, so no log records and no deadlines (replay the trace with
// a PET of its task types and --deadline):
//
//	task type  the trace's kind from its file name, "code" or "conv" (TaskTypeField
//	           context: the power of two at or above ContextTokens, "ctx2048")
//	arrival    TIMESTAMP, from the first request of the first file (time zero)
//
// A sample keeps each request with the given probability.
func importAzureLLM(im *importer, in []importInput) error {
	field := strings.ToLower(orDefault(im.opt.TaskTypeField, "file"))
	if field != "file" && field != "context" {
		return fmt.Errorf("azure-llm: task type field %q: want file or context", field)
	}
	if im.opt.MachineTypeField != "" {
		return fmt.Errorf("azure-llm: the trace has no machine types; it takes no machine type field")
	}
	var origin time.Time
	for _, input := range in {
		kind := strings.TrimSuffix(path.Base(filepath.ToSlash(input.name)), path.Ext(input.name))
		kind = strings.TrimSuffix(kind, ".csv")
		if i := strings.LastIndexByte(kind, '_'); i >= 0 {
			kind = kind[i+1:]
		}
		var cols []int
		var names []string
		err := im.eachCSV(input, func(rec []string, line int) error {
			if cols == nil {
				h := newHeader(rec)
				names = headerNames(h)
				var err error
				cols, err = h.require(input.name, line, "timestamp")
				cols = append(cols, h.col("contexttokens"))
				return err
			}
			if err := im.row(); err != nil {
				return err
			}
			c := cells{file: input.name, line: line, rec: rec, names: names}
			ts, ok := parseLLMTime(c.text(cols[0], "TIMESTAMP"))
			if c.ok() && !ok {
				c.fail(cols[0], "TIMESTAMP not a date and time")
			}
			tt := kind
			if field == "context" {
				tt = tokenClass(c.number(cols[1], "ContextTokens"))
			}
			if !c.ok() {
				im.bad(Skipped, c.reason, c.err)
				return nil
			}
			if origin.IsZero() {
				origin = ts
			}
			a := ts.Sub(origin).Seconds() * trace.Second.Factor(im.res.Unit) // dates: no source unit applies
			if im.keep(input.name+"#"+strconv.Itoa(line)) && im.inWindow(a) {
				im.task(tt, a, "", nil)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func parseLLMTime(s string) (time.Time, bool) {
	for _, l := range llmLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// tokenClass names the power of two at or above n tokens (at least 256).
func tokenClass(n float64) string {
	c := 256.0
	for c < n && c < 1<<30 {
		c *= 2
	}
	return "ctx" + strconv.FormatFloat(math.Min(c, 1<<30), 'f', -1, 64)
}
