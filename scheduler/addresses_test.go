package scheduler

import (
	"slices"
	"testing"
)

func mustAddresses(t *testing.T, names ...string) *addresses {
	t.Helper()
	a, err := newAddresses("GPU", names)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNewAddressesRejects(t *testing.T) {
	_, err := newAddresses("GPU", []string{"0", ""})
	wantErr(t, err, "GPU address 1 is empty")
	_, err = newAddresses("GPU", []string{"0", "1", "0"})
	wantErr(t, err, `"0" listed twice`)
	h := newHarness(t, Config{})
	err = h.s.AddExecutor(t0, ExecutorSpec{ID: "e", Host: "h", Cores: 1, GPUs: []string{"0", "0"}})
	wantErr(t, err, "executor e", "listed twice")
}

func TestAddressesWhole(t *testing.T) {
	a := mustAddresses(t, "0", "1", "2", "3")
	got, ok := a.acquire(WholeGPUs(2))
	if !ok || !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("acquire 2 = %v %v, want [0 1]", got, ok)
	}
	got2, ok := a.acquire(WholeGPUs(1))
	if !ok || !slices.Equal(got2, []string{"2"}) {
		t.Fatalf("acquire 1 = %v %v, want [2]", got2, ok)
	}
	if a.fits(WholeGPUs(2)) {
		t.Fatal("2 GPUs fit with one free")
	}
	if _, ok := a.acquire(WholeGPUs(2)); ok {
		t.Fatal("acquired 2 GPUs with one free")
	}
	if err := a.release(got, WholeGPUs(2)); err != nil {
		t.Fatal(err)
	}
	got3, ok := a.acquire(WholeGPUs(3))
	if !ok || !slices.Equal(got3, []string{"0", "1", "3"}) {
		t.Fatalf("acquire 3 = %v %v, want [0 1 3]", got3, ok)
	}
	if a.fits(gpu(t, 0.01)) {
		t.Fatal("a fraction fits on a full executor")
	}
}

func TestAddressesFractions(t *testing.T) {
	third := gpu(t, 1.0/3)
	a := mustAddresses(t, "0")
	for i := range 3 {
		got, ok := a.acquire(third)
		if !ok || !slices.Equal(got, []string{"0"}) {
			t.Fatalf("third %d: %v %v", i, got, ok)
		}
	}
	if a.free[0] != 0 {
		t.Fatalf("three thirds leave %d of the address, want exactly 0", a.free[0])
	}
	if a.fits(third) {
		t.Fatal("a fourth third fits")
	}
	// Anything positive at all no longer fits.
	if a.fits(GPURequest{fraction: 1}) {
		t.Fatal("three thirds plus the smallest share fit")
	}
	if err := a.release([]string{"0"}, third); err != nil {
		t.Fatal(err)
	}
	if !a.fits(gpu(t, 0.3)) || a.fits(gpu(t, 0.34)) {
		t.Fatal("after freeing a third: 0.3 should fit and 0.34 not")
	}

	b := mustAddresses(t, "0")
	three := gpu(t, 0.3)
	for i := range 3 {
		if _, ok := b.acquire(three); !ok {
			t.Fatalf("0.3 number %d does not fit", i+1)
		}
	}
	if b.fits(three) {
		t.Fatal("a fourth 0.3 fits")
	}
	if _, ok := b.acquire(gpu(t, 0.1)); !ok || b.free[0] != 0 {
		t.Fatalf("0.1 after 3 × 0.3: free %d, want it to fill the address exactly", b.free[0])
	}
}

// A fraction goes to the lowest address with room; a whole GPU needs a
// wholly free one.
func TestAddressesMixed(t *testing.T) {
	a := mustAddresses(t, "a", "b")
	half := gpu(t, 0.5)
	if got, _ := a.acquire(half); got[0] != "a" {
		t.Fatalf("half on %v, want a", got)
	}
	got, ok := a.acquire(WholeGPUs(1))
	if !ok || got[0] != "b" {
		t.Fatalf("whole on %v %v, want b", got, ok)
	}
	if a.fits(WholeGPUs(1)) {
		t.Fatal("a whole GPU fits on a half-used address")
	}
	if got, _ := a.acquire(gpu(t, 0.25)); got[0] != "a" {
		t.Fatalf("quarter on %v, want a", got)
	}
	if a.fits(half) {
		t.Fatal("half fits beside 0.75 used and a whole GPU")
	}
	if got, ok := a.acquire(GPURequest{}); got != nil || !ok {
		t.Fatalf("no-GPU acquire = %v %v, want nil true", got, ok)
	}
}

// Releasing what was not acquired is detected, and changes nothing.
func TestAddressesReleaseErrors(t *testing.T) {
	a := mustAddresses(t, "0", "1", "2")
	half := gpu(t, 0.5)
	if _, ok := a.acquire(WholeGPUs(1)); !ok { // takes "0"
		t.Fatal("acquire")
	}
	if _, ok := a.acquire(half); !ok { // takes half of "1"
		t.Fatal("acquire")
	}
	before := slices.Clone(a.free)
	for _, tc := range []struct {
		names []string
		g     GPURequest
		want  string
	}{
		{[]string{"2"}, WholeGPUs(1), `"2"`}, // never taken
		{[]string{"9"}, WholeGPUs(1), `"9", which this executor does not have`},
		{[]string{"1"}, WholeGPUs(1), `"1", which has only 0.5`}, // half in use, whole released
		{[]string{"0", "2"}, WholeGPUs(2), `"2"`},                // one of two not taken
		{[]string{"0"}, WholeGPUs(2), "releasing 2 GPUs from 1"},
		{[]string{"0", "0"}, WholeGPUs(2), `"0"`}, // the same address twice
		{[]string{"1", "2"}, half, "from 2 addresses"},
		{nil, half, "from 0 addresses"},
		{[]string{"2"}, half, `"2"`}, // fraction never taken
		{[]string{"0"}, GPURequest{}, "releasing 0 GPUs from 1"},
	} {
		err := a.release(tc.names, tc.g)
		wantErr(t, err, tc.want)
		if !slices.Equal(a.free, before) {
			t.Fatalf("release(%v, %v) failed but changed free from %v to %v", tc.names, tc.g, before, a.free)
		}
	}
	// Half of "1" twice: the first is right, the second was never taken.
	if err := a.release([]string{"1"}, half); err != nil {
		t.Fatal(err)
	}
	wantErr(t, a.release([]string{"1"}, half), `"1"`)
	if err := a.release([]string{"0"}, WholeGPUs(1)); err != nil {
		t.Fatal(err)
	}
	wantErr(t, a.release([]string{"0"}, WholeGPUs(1)), `"0"`)
	for i, f := range a.free {
		if f != One {
			t.Fatalf("address %d: %d free after releasing everything", i, f)
		}
	}
	if err := a.release(nil, GPURequest{}); err != nil {
		t.Fatalf("releasing nothing: %v", err)
	}
}

// A task gets concrete addresses: one for a fraction, n distinct for n whole
// GPUs, none for no GPU.
func TestLaunchAddresses(t *testing.T) {
	h := newHarness(t, Config{}, Profile{ID: 0, Cores: 8, GPUs: 4})
	h.exec("e1", "h1", 8, "g0", "g1", "g2", "g3")
	j := h.submit(JobSpec{Name: "j", Stages: []StageSpec{
		{Name: "two", Tasks: 1, Request: TaskRequest{CPUs: 1, GPU: WholeGPUs(2)}},
		{Name: "frac", Tasks: 4, Request: TaskRequest{CPUs: 1, GPU: gpu(t, 0.5)}},
		{Name: "cpu", Tasks: 1, Request: TaskRequest{CPUs: 1}},
	}})
	rd := h.ready()
	if got := fmtLaunches(rd.Launches); got != "s0/0#0@e1[g0,g1] s1/0#0@e1[g2] s1/1#0@e1[g2] s1/2#0@e1[g3] s1/3#0@e1[g3] s2/0#0@e1[]" {
		t.Fatalf("launches %s", got)
	}
	for _, l := range rd.Launches {
		if l.Job != j || l.Host != "h1" {
			t.Fatalf("launch %+v", l)
		}
	}
}
