// Package importers turns production traces into what package trace reads: an
// execution log and an arrival trace. It owns the formats of other people's
// clusters, one file each, and the machinery they share (sampling, the time
// window, the bad-row report, the shift to time 0, deadlines). It does not
// own the log and trace formats, their readers and writers, the deadline
// rules or the decompression and line bounds (package trace, which it imports
// and which does not import it), nor flags and exit codes (cmd/hcreplay's
// trace import).
//
// Import (and ImportRecords, in memory) turns a production trace into an
// execution log and an arrival trace of package trace (issue 9): the Standard
// Workload Format of the Parallel Workloads Archive, CSV exports of Google
// cluster-data 2019 (instance, collection and machine events), Alibaba
// GPU-2020 pai_task_table and cluster-trace-v2018 batch_instance/batch_task
// (with machine_meta), Azure Functions 2019 invocation counts and duration
// percentiles, the Azure LLM inference 2023 CSV, and the E2C simulator's EET
// matrix and workload CSVs. Each format's file (swf.go, google.go, ...)
// documents its layout, with the source of the layout, and how its fields map
// onto task type, machine type, execution time and arrival;
// Options.TaskTypeField and MachineTypeField pick other fields. The importers
// stream the source and write the log as they read; the arrivals are held in
// memory, since the trace is sorted by arrival and shifted to start at 0, and
// its deadlines, which no source has, are synthesized by a trace.DeadlineRule
// from the per-type means of the imported log. Arrivals of a task type
// without any execution record are left out, since a PET built from the log
// could not replay them.
//
// Rows are never dropped silently: a row that cannot be used, or only in part
// (no execution time, say, for a failed job), is counted in Result.Bad under
// its reason, with its effect and the first few examples as *trace.InputError
// (file, line, column, value). Only unreadable or unrecognisable files are
// errors. Options.Sample keeps a fraction of the units of work (jobs,
// collections, invocations) chosen by a seeded hash of their keys, so a seed
// keeps the same units whatever the file order, and the time window keeps
// what arrives in [from, to) from the source's zero. FuzzImportSWF and its
// siblings fuzz every importer.
//
// # Adding a format
//
// A format is a Format constant, a file with its read function (which streams
// the source files into the importer with eachCSV or eachLine and calls keep,
// inWindow, bad, log and task), and a row in readers. Formats, ParseFormat
// and Import take it from there; the tests check that the command line's
// --from choices and help list exactly the formats of readers, and
// TestFormats that every format has a fixture.
package importers
