package replay

import (
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
		{"yaml", "- {name: x, machine_type: cpu, count: -1}\n", "count -1 is negative"},
		{"csv", "name,machine_type,price_per_hour\nx,cpu,abc\n", `line 2 column price_per_hour: "abc" is not a number`},
		{"csv", "name,price_per_hour\nx,1\n", `missing column "machine_type"`},
		{"toml", "", "unknown catalog format"},
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
