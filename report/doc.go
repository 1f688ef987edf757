// Package report turns replay results and input data into what people read: aggregates over
// trials (means, 95% confidence intervals, paired differences), tables (terminal, Markdown, CSV,
// LaTeX) and figures (gonum plot: PNG, SVG, PDF).
//
// It owns presentation only. It does not run replays, read trace or PET files, or decide anything
// about scheduling; callers hand it the numbers.
package report
