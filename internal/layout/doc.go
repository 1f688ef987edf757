// Package layout holds no code: its test checks the module's import graph against SPEC §2
// (issue 48), from the import clauses of the source files, so that a wrong import is reported
// by name even where it would also make a cycle that stops other packages from building.
package layout
