// Package trace owns the data that goes into a replay: execution logs (what
// ran where, for how long) and arrival traces (which task arrives when, with
// which deadline). It reads and writes them, validates them, synthesizes
// missing deadlines, and generates synthetic arrival trials.
//
// It does not own the PET matrix (package petbuild builds it from the logs
// this package reads, and hands back per-type means as TypeMeans for the
// deadline rules), the sampling of durations (package replay), or exit codes
// and flags (cmd/hcreplay, which recognises bad input with
// errors.As(err, new(*InputError))). Of the module it imports only
// internal/atomicfile (its outputs) and internal/natural (the order of names
// it shares with petbuild and report).
//
// # Records
//
// A LogRecord is one execution: task_type, machine_type, exec_time, and
// optionally task_id, machine_id, start and end. A Task is one arrival:
// task_type and arrival, and optionally deadline, task_id (the row index
// otherwise), job_id and observed durations in exec_<machine_type> columns.
// Types are strings; the HCW19 files number them, and their numbers are kept
// as strings ("0" ... "11"), unless ReadOptions.TypeIndex names them: a .dat
// file's type k then reads as TypeIndex[k], the inverse of
// WriteOptions.TypeIndex, so that a trial written with a PET's task types
// reads back with their names.
//
// # Files
//
// The format comes from the extension or ReadOptions.Format: .csv (with a
// header line), .jsonl or .ndjson (one JSON object per line), .parquet, and
// .dat (the HCW19 arrival layout). Text formats may be gzip- or
// zstd-compressed (.csv.gz, .jsonl.zst, ...); the readers recognise the
// compression by its magic number. Expand turns a spec into sources: a path,
// a glob, a zip member ("constant.zip#arr/arr19k_1.dat") or a glob inside
// zips ("constant.zip#arr/arr19k_*.dat"), in natural order.
//
// Columns are found by name (exactly, else case-insensitively);
// ReadOptions.Columns maps our names to other ones ("task_type=app"), and a
// log without exec_time but with start and end gets exec_time = end - start.
//
// Every file the package writes records its time unit: Parquet in the
// key-value metadata entry time_unit, CSV and JSON Lines in a first comment
// line "# time_unit=ms" (the readers skip leading '#' lines and honour that
// one; pandas reads such CSV with comment="#"). The .dat layout cannot, and
// is read in ReadOptions.FileUnit. Values are converted to ReadOptions.Unit
// (default ms); a Parquet TIMESTAMP column carries its own unit. Outputs go
// to a temporary file in the target directory and are renamed into place
// only when complete.
//
// # Reading and validation
//
// Readers stream: LogReader.Next and TaskReader.Next (or their All
// iterators) hold one record at a time, so a log of any size is read in
// constant memory; ReadLogs and ReadTrace collect everything. EachLog reads a
// CSV log in chunks of whole lines parsed on every core, its records passed on
// in file order (csvparallel.go); quote-free lines are split and their numbers
// parsed without encoding/csv, which reads the rest of a file from its first
// chunk with a quote on (csvfast.go). Parquet files
// are opened with parquet.OpenFile, their required columns are looked up in
// the schema before anything is read (parquet-go silently zero-fills missing
// columns in typed reads, which is never allowed to happen here), only the
// needed columns are read, page by page, from the typed slices of each page
// (parquetpage.go), on a goroutine of their own ahead of EachLog's callback.
//
// Every problem comes back as one *InputError naming the file, the line
// (text formats, counting every physical line) or row (Parquet, from 1), the
// column and the value: a missing required column or value, a value that is
// not a number, NaN or infinite, a time beyond MaxSeconds, an execution time that
// is not positive, a deadline before its arrival, a task or machine type outside
// ReadOptions.KnownTaskTypes/KnownMachineTypes, a duplicate task id, an empty,
// truncated or malformed file. Arrivals out of order are sorted stably by
// ReadTrace with one warning through ReadOptions.Warn, or are an error with
// ReadOptions.Strict. No input makes the readers panic: the fuzz targets
// (FuzzReadCSV, FuzzReadJSONL, FuzzReadParquet, FuzzReadDat) check that.
// parquet-go trusts the sizes a file declares and can be made to allocate
// gigabytes by a few corrupt bytes; the footer and every page header are
// checked first (see parquetguard.go), but a deliberately crafted gzip or
// brotli decompression bomb inside a page would still get through: trace
// files are treated as the user's data, not as hostile input.
//
// # Deadlines and synthetic workloads
//
// DeadlineRule implements the three rules of the original study's generator
// (tight, prop:α, urgency) and the β-slack rule of the journal paper; see its
// documentation for formulas and defaults. GenConfig and Generate make
// synthetic trials as described in 000 §8.2 and thesis §3.4.2: per-type
// gamma inter-arrival times, constant or spiky rates, oversubscription
// labels such as "19k" via LevelRate and DefaultPeriod, and trial t seeded
// with rand.NewPCG(seed, t). Randomness comes only from the caller's seed or
// *rand.Rand; the package has no global state.
//
// # Production traces
//
// The importers of production traces (SWF, Google 2019, Alibaba, Azure,
// E2C) live in package trace/importers, which builds on the readers and
// writers here; this package does not import it.
//
// # The HCW19 files
//
// The original trials (hpcclab/HCW19_Workload) have quirks that matter when
// reproducing the papers:
//
//   - The first task line of most trials is damaged: the generator overwrote
//     its first one or two bytes with the header, so "0.99" reads as "99".
//     RepairHCW19FirstArrival restores it from the deadline. The reader
//     itself never alters data; where the damage puts the first task out of
//     order (316 of the 510 constant trials), ReadTrace warns and sorts.
//   - Deadlines follow prop:1 exactly: the arrival plus the type's mean over
//     machines plus once the global mean, computed from classes_2.etc.
//   - In spiky.zip the deadline of task type k was computed from PET row k-1
//     (row 11 for type 0), a bug of convertWorkLoad_spk.py; the types
//     themselves are those of the PET.
//   - The "constant" trials were made with exponential inter-arrival times
//     around sinusoidally modulated per-type rates, not with the gamma
//     process the papers describe (see GenConfig).
package trace
