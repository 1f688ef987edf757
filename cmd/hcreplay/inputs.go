package main

import (
	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
)

// This file turns the user's files into what the replay engine takes: a PET, machines and
// tasks with type indices. Every failure here is the user's to fix, so errors are badInput.

// loadPET reads a PET file (.json, .parquet, .etc).
func loadPET(path string) (*petbuild.PET, error) {
	p, err := petbuild.ReadFile(path, petbuild.ReadOptions{})
	if err != nil {
		return nil, badInput(err)
	}
	return p, nil
}

// loadMachines reads a catalog, or builds the default one (one machine per PET machine type).
func loadMachines(path string, pet *petbuild.PET) ([]replay.Machine, error) {
	ms, err := replay.ReadCatalog(path, pet.MachineTypes())
	return ms, badInput(err)
}
