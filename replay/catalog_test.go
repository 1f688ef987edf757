package replay

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseCatalog(t *testing.T) {
	types := []string{"cpu", "gpu"}
	yml := "- {name: fast, machine_type: gpu, count: 2, price_per_hour: 3, power_watts: 300}\n- {name: slow, machine_type: cpu, price_per_hour: 0.5}\n"
	ms, err := ParseCatalog(strings.NewReader(yml), "c.yaml", "yaml", types)
	if err != nil {
		t.Fatal(err)
	}
	want := []Machine{{"fast-0", 1, 3, 300}, {"fast-1", 1, 3, 300}, {"slow", 0, 0.5, 0}}
	if len(ms) != len(want) {
		t.Fatalf("got %+v", ms)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("machine %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
	csvText := "name,machine_type,count,price_per_hour,power_watts\nfast,gpu,2,3,300\nslow,cpu,,0.5,\n"
	fromCSV, err := ParseCatalog(strings.NewReader(csvText), "c.csv", "csv", types)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if fromCSV[i] != want[i] {
			t.Errorf("csv machine %d = %+v, want %+v", i, fromCSV[i], want[i])
		}
	}
	bad := []struct{ format, text, want string }{
		{"yaml", "- {name: x, machine_type: tpu}\n", `machine type "tpu" is not in the PET (cpu, gpu)`},
		{"yaml", "", "empty catalog"},
		{"yaml", "- {name: x, machine_type: cpu, speed: 2}\n", "field speed not found"},
		{"yaml", "- {name: x, machine_type: cpu, count: -1}\n", "count -1 is negative"},
		{"csv", "name,machine_type,price_per_hour\nx,cpu,abc\n", `line 2 column price_per_hour: "abc" is not a number`},
		{"csv", "name,price_per_hour\nx,1\n", `missing column "machine_type"`},
		{"toml", "", "unknown catalog format"},
		{"yaml", "- {name: x, machine_type: cpu, count: 1000000000}\n", "count 1000000000 makes more than 100000 machines in all"},
		{"yaml", "- {name: x, machine_type: cpu, count: 60000}\n- {name: y, machine_type: gpu, count: 40001}\n", "entry 2 (y): count 40001 makes more"},
		{"yaml", "- {name: x, machine_type: cpu, price_per_hour: .inf}\n", "must be finite and ≥ 0"},
		{"csv", "name,machine_type,power_watts\nx,cpu,NaN\n", "must be finite and ≥ 0"},
		{"yaml", "- {name: x, machine_type: cpu, power_watts: 1e308}\n", "power 1e+308 W is beyond 1e+12: a corrupt value"},
		{"csv", "name,machine_type,price_per_hour\nx,cpu,1.000001e12\n", "price 1.000001e+12 or power 0 W is beyond"},
		{"yaml", "- {name: a, machine_type: cpu, count: 2}\n- {name: a-1, machine_type: gpu}\n", `entry 2 (a-1): machine name "a-1" is also made by entry 1`},
		{"csv", "name,machine_type\nx,cpu\nx,gpu\n", `machine name "x" is also made by entry 1`},
	}
	for _, b := range bad {
		_, err := ParseCatalog(strings.NewReader(b.text), "c", b.format, types)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s %q: error %v, want %q", b.format, b.text, err, b.want)
		}
	}
	def := DefaultCatalog([]string{"0", "1", "2", "3", "4", "5", "6", "7", "8"})
	if len(def) != 9 || def[8].PricePerHour != def[0].PricePerHour || def[5].Type != 5 {
		t.Errorf("default catalog %+v", def)
	}
}

// FuzzParseCatalog feeds ParseCatalog arbitrary text as YAML and as CSV: it must return an
// error or machines that a replay can use: at least one and at most maxCatalogMachines, each
// with a name no other has, a type of the PET, and a price and power from 0 to maxCatalogValue.
func FuzzParseCatalog(f *testing.F) {
	f.Add("- {name: fast, machine_type: gpu, count: 2, price_per_hour: 3, power_watts: 300}\n- {name: slow, machine_type: cpu}\n")
	f.Add("name,machine_type,count,price_per_hour,power_watts\nfast,gpu,2,3,300\nslow,cpu,,0.5,\n")
	f.Add("- {name: a, machine_type: cpu, count: 3}\n- {name: a-1, machine_type: gpu}\n")
	types := []string{"cpu", "gpu"}
	f.Fuzz(func(t *testing.T, text string) {
		for _, format := range []string{"yaml", "csv"} {
			ms, err := ParseCatalog(strings.NewReader(text), "fuzz", format, types)
			if err != nil {
				continue
			}
			if len(ms) == 0 || len(ms) > maxCatalogMachines {
				t.Fatalf("%s: %d machines", format, len(ms))
			}
			seen := map[string]bool{}
			for _, m := range ms {
				if m.Name == "" || seen[m.Name] {
					t.Fatalf("%s: machine name %q empty or repeated", format, m.Name)
				}
				seen[m.Name] = true
				if m.Type < 0 || m.Type >= len(types) {
					t.Fatalf("%s: machine %q has type %d", format, m.Name, m.Type)
				}
				if !(m.PricePerHour >= 0 && m.PowerWatts >= 0) || max(m.PricePerHour, m.PowerWatts) > maxCatalogValue {
					t.Fatalf("%s: machine %q has price %v and power %v", format, m.Name, m.PricePerHour, m.PowerWatts)
				}
			}
		}
	})
}

// TestReadCatalog: a file in the format of its extension (upper case too), the default catalog
// for no path, and a missing file named in the error.
func TestReadCatalog(t *testing.T) {
	types := []string{"cpu", "gpu"}
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "c.CSV")
	if err := os.WriteFile(csvPath, []byte("name,machine_type,count\ng,gpu,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadCatalog(csvPath, types)
	if err != nil || len(ms) != 2 || ms[0].Name != "g-0" || ms[1].Type != 1 {
		t.Errorf("c.CSV: %v, %v; want g-0 and g-1 of type 1", ms, err)
	}
	if ms, err := ReadCatalog("", types); err != nil || !reflect.DeepEqual(ms, DefaultCatalog(types)) {
		t.Errorf("no path: %v, %v; want the default catalog", ms, err)
	}
	missing := filepath.Join(dir, "none.yaml")
	if _, err := ReadCatalog(missing, types); err == nil || !strings.HasPrefix(err.Error(), "read catalog "+missing+": ") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want it named and fs.ErrNotExist", err)
	}
}
