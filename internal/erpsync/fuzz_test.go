package erpsync

import (
	"os"
	"testing"
)

// FuzzParse: no input makes Parse panic, and whatever it accepts Marshal
// writes back as a file Parse accepts and Marshal writes the same way.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("testdata/mapping.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(small))
	getenv := env(map[string]string{"ERP_DSN": "sqlite:///tmp/erp.db", "MUNSHI_TZ": "Asia/Kolkata"})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, getenv)
		if err != nil {
			if m != nil {
				t.Fatal("a mapping with an error")
			}
			return
		}
		out, err := m.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		again, err := Parse(out, getenv)
		if err != nil {
			t.Fatalf("Marshal wrote what Parse refuses: %v\n%s", err, out)
		}
		out2, err := again.Marshal()
		if err != nil || string(out2) != string(out) {
			t.Fatalf("Marshal is not stable:\n%s\n----\n%s", out, out2)
		}
	})
}
