package petbuild

import "fmt"

// FitSpec is a fit's options in their command-line form (pet build's flags), checked and parsed
// by Options.
type FitSpec struct {
	Binning            string   // ParseBinning's form
	MinSamples         int      // 0: DefaultMinSamples
	FillFrom           []string // ParseFillFrom's form
	Merge, MaxImpulses int      // Compaction's
	Crop               string   // ParseCrop's form; "" crops nothing
}

// Options checks s and turns it into FitOptions. Its errors name each option by name(key), key
// as the grid keys are spelt (min_samples, merge, fill_from, crop): the command line gives its
// flags. A bad binning's message names its value alone.
func (s FitSpec) Options(name func(key string) string) (FitOptions, error) {
	b, err := ParseBinning(s.Binning)
	if err != nil {
		return FitOptions{}, err
	}
	if s.MinSamples < 0 {
		return FitOptions{}, fmt.Errorf("%s %d: a cell cannot have fewer than 0 samples", name("min_samples"), s.MinSamples)
	}
	if s.Merge < 0 {
		return FitOptions{}, fmt.Errorf("%s %d: want a factor of 2 or more (0 or 1 merges nothing)", name("merge"), s.Merge)
	}
	fill, err := ParseFillFrom(s.FillFrom)
	if err != nil {
		return FitOptions{}, fmt.Errorf("%s %w", name("fill_from"), err)
	}
	comp := Compaction{Merge: s.Merge, MaxImpulses: s.MaxImpulses}
	if s.Crop != "" {
		if comp.CropLow, comp.CropHigh, err = ParseCrop(s.Crop); err != nil {
			return FitOptions{}, fmt.Errorf("%s %q: %w", name("crop"), s.Crop, err)
		}
	}
	return FitOptions{Binning: b, MinSamples: s.MinSamples, FillFrom: fill, Compaction: comp}, nil
}

// Hint is e with the options that fix it, named by name(key) as FitSpec.Options names them: a
// minimum down to the thinnest cell's count (Fewest), or a donor machine type (fill_from), the
// only fix for a cell without samples.
func (e *ThinCellsError) Hint(name func(key string) string) error {
	least := e.Fewest()
	fix := fmt.Sprintf("give %s %d to fit them from what they have (a histogram of so few samples is rough)", name("min_samples"), max(least, 1))
	if least == 0 {
		fix = "a cell without samples cannot be fitted: give " + name("fill_from") + " MACHINE=DONOR to take its task type's samples on another machine type"
	} else {
		fix += ", or " + name("fill_from") + " MACHINE=DONOR to take them from another machine type"
	}
	return fmt.Errorf("%w; %s", e, fix)
}
