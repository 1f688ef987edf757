package traces

import (
	"io/fs"
	"strings"
	"testing"
)

func TestDemoHasPETAndTrials(t *testing.T) {
	names, err := fs.Glob(Demo(), "*")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(names, " ")
	if !strings.Contains(joined, "pet.json") || len(names) != 16 {
		t.Fatalf("demo data: %v", names)
	}
}
