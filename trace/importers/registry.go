package importers

import "github.com/hcreplay/hcreplay/trace"

// reader is what the package knows of one format: its name, the unit of its
// source's times, and the function that reads its files into an importer
// (which holds what the formats share: sampling, the time window, the
// bad-row report, the log and the arrivals). Each format's file documents its
// layout and mapping next to its read function.
type reader struct {
	format Format
	unit   trace.Unit
	read   func(im *importer, in []importInput) error
}

// readers lists the formats in the order the help text gives them. Adding a
// format is a file with its read function, a constant and a row here, and a
// row in TestFormats' table of fixtures; the command line's --from choices
// and the docs are checked against this list by tests.
func readers() []reader {
	return []reader{
		{SWF, trace.Second, importSWF},
		{Google2019, trace.Microsecond, importGoogle},
		{AlibabaPAI, trace.Second, importPAI},
		{Alibaba2018, trace.Second, importAlibaba2018},
		{AzureFunctions, trace.Millisecond, importAzureFunctions},
		{AzureLLM, trace.Second, importAzureLLM},
		{E2C, trace.Second, importE2C},
	}
}

// lookup returns the reader of a format.
func lookup(f Format) (reader, bool) {
	for _, r := range readers() {
		if r.format == f {
			return r, true
		}
	}
	return reader{}, false
}
