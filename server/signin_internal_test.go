package server

import (
	"strconv"
	"testing"
	"time"
)

func TestNameFailuresBounded(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	f := newNameFailures(2, time.Minute, 3)
	f.fail("asha", t0)
	f.fail("asha", t0.Add(time.Second))
	if ok, wait := f.allowed("asha", t0.Add(10*time.Second)); ok || wait != 50*time.Second {
		t.Fatalf("after 2 failures: allowed %v, wait %v; want refused for 50s", ok, wait)
	}
	if ok, _ := f.allowed("asha", t0.Add(time.Minute)); !ok {
		t.Fatalf("refused once the window ended")
	}
	for i := range 10 {
		f.fail("name"+strconv.Itoa(i), t0.Add(2*time.Second))
	}
	if n := f.len(); n != 3 {
		t.Fatalf("%d names kept, want at most 3", n)
	}
	f.sweep(t0.Add(2*time.Second + time.Minute))
	if n := f.len(); n != 0 {
		t.Fatalf("%d names kept after their windows, want 0", n)
	}
}
