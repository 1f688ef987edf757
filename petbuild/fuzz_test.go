package petbuild

import (
	"errors"
	"testing"
)

// fuzzCheck is the property every reader must have: it never panics, every error is a
// *ReadError, and every PET it returns satisfies the pmf invariants, the grid rule and the
// grid limits (a finite step in [1e-9, 1e15], times at most 1e15 and 2^30 steps from 0).
func fuzzCheck(t *testing.T, p *PET, err error) {
	if err != nil {
		var re *ReadError
		if !errors.As(err, &re) {
			t.Fatalf("error %T %q is not a *ReadError", err, err)
		}
		return
	}
	checkCells(t, p)
}

func FuzzReadETC(f *testing.F) {
	f.Add([]byte(etcHead + "machine=0;task=0;\n2\t0.25\n4\t0.75\nmachine=1;task=0;\n0\t1\n"))
	f.Add([]byte("machineCount=1;taskCount=1;\r\nmachine=0;task=0;\r\n.5\t0.5 \r\n1e0\t.5\r\n"))
	f.Add([]byte("machineCount=1;taskCount=1;\nmachine=0;task=0;\n1\t0.5\n3.14159\t0.5\n"))
	f.Add([]byte("machineCount=1;taskCount=1;\nmachine=0;task=0;\n1e300\t0.5\n2e300\t0.5\n"))
	f.Add([]byte("machineCount=2;taskCount=1;\nmachine=0;task=0;\n1e-300\t1\nmachine=1;task=0;\n1e15\t1\n"))
	f.Add(encode(f, smallPET(f), FormatETC))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decode(data, FormatETC, ReadOptions{})
		fuzzCheck(t, p, err)
	})
}

func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(jsonOK))
	f.Add(encode(f, smallPET(f), FormatJSON))
	f.Add([]byte(`{"format":"hcreplay-pet","version":1,"step":1e-300,"task_types":["a"],"machine_types":["b"],"cells":[{"task_type":"a","machine_type":"b","origin":1e300,"probs":[1]}]}`))
	f.Add([]byte(`{"format":"hcreplay-pet","version":1,"step":2,"task_types":["a"],"machine_types":["b"],"cells":[{"task_type":"a","machine_type":"b","origin":1e300,"probs":[1]}]}`))
	f.Add([]byte(`{"format":"hcreplay-pet","version":1,"step":1e300,"task_types":["a"],"machine_types":["b"],"cells":[{"task_type":"a","machine_type":"b","origin":54,"probs":[1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decode(data, FormatJSON, ReadOptions{})
		fuzzCheck(t, p, err)
	})
}

// FuzzReadParquet exercises parquet-go's decoders through ReadParquet. Run it with a short
// minimisation time:
//
//	go test -run '^$' -fuzz '^FuzzReadParquet$' -fuzztime 5m -fuzzminimizetime 2s ./petbuild/
//
// With the default 60 s, the engine spends minutes minimising each new interesting input
// (the exec counter shows 0/sec meanwhile) and, when -fuzztime ends during a minimisation,
// reports a spurious "fuzzing process hung or terminated unexpectedly while minimizing: EOF"
// (golang/go#48820, #52569); the input it writes then passes.
func FuzzReadParquet(f *testing.F) {
	valid := encode(f, smallPET(f), FormatParquet)
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add([]byte(writeParquet(f, []parquetRow{{"a", "x", 1e300, 1}}, map[string]string{pqKeyStep: "2"})))
	f.Add([]byte(writeParquet(f, []parquetRow{{"a", "x", 1e-300, 0.5}, {"a", "x", 2e-300, 0.5}}, nil)))
	if path := hcw19Path("classes_2.etc"); path != "" {
		if p, err := ReadFile(path, ReadOptions{}); err == nil {
			f.Add(encode(f, p, FormatParquet))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decode(data, FormatParquet, ReadOptions{})
		fuzzCheck(t, p, err)
	})
}
