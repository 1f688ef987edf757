package main

import (
	"reflect"
	"strings"
)

// oneCommand returns a grammar of the global flags and the one top-level command that args
// name, and its Globals, or nil when args may need the whole grammar. kong builds its model of
// every command before it parses anything: for the whole CLI that took 8 ms of each process
// start, a tenth of a 30-trial replay of HCW19's MM (measured, fresh processes). The one
// command's grammar parses the same arguments into the same values, so run parses with it
// first, and with the whole grammar when it fails: every error, and the help, is the whole
// grammar's. Help, and a config file (--config), whose sections name other commands, take the
// whole grammar from the start.
func oneCommand(args []string) (any, *Globals) {
	name := ""
	for _, a := range args {
		switch {
		case a == "--", a == "-h", a == "--help", a == "--config", strings.HasPrefix(a, "--config="):
			return nil, nil
		case name == "" && !strings.HasPrefix(a, "-"):
			name = a // a command, or a global flag's value: then no command matches
		}
	}
	cli := reflect.TypeFor[CLI]()
	for i := range cli.NumField() {
		f := cli.Field(i)
		if _, cmd := f.Tag.Lookup("cmd"); f.Anonymous || !cmd || strings.ToLower(f.Name) != name || f.Tag.Get("name") != "" {
			continue
		}
		globals := reflect.StructField{Name: "Globals", Type: reflect.TypeFor[Globals](), Tag: `embed:""`}
		v := reflect.New(reflect.StructOf([]reflect.StructField{globals, f}))
		return v.Interface(), v.Elem().Field(0).Addr().Interface().(*Globals)
	}
	return nil, nil
}
