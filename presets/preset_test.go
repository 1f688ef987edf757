package presets

import "testing"

// TestEmbeddedLoad loads every embedded preset through the strict loader.
func TestEmbeddedLoad(t *testing.T) {
	for _, name := range Names() {
		if _, err := Load(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
