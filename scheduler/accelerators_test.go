package scheduler

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func accels(t testing.TB, amounts map[string]int) Accelerators {
	t.Helper()
	a, err := NewAccelerators(amounts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fmtAccels renders a launch's accelerators: "fpga=0,1 tpu=3".
func fmtAccels(l Launch) string {
	var parts []string
	for _, x := range l.Accels {
		parts = append(parts, x.Name+"="+strings.Join(x.Addresses, ","))
	}
	return strings.Join(parts, " ")
}

func TestAcceleratorAddressesAreTakenWholeAndNeverShared(t *testing.T) {
	prof := Profile{ID: 0, Cores: 8, GPUs: 1, Accels: accels(t, map[string]int{"fpga": 4, "tpu": 1})}
	h := newHarness(t, Config{}, prof)
	if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: "e1", Host: "h1", Cores: 8, GPUs: []string{"0"},
		Accels: []Assigned{{"fpga", []string{"a", "b", "c", "d"}}, {"tpu", []string{"t0"}}}}); err != nil {
		t.Fatal(err)
	}
	spec := oneStage("s", 3, 1, GPURequest{})
	spec.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": 2})
	h.submit(spec)
	rd := h.ready()
	// 4 FPGAs of 2 each: two tasks at once, on distinct addresses.
	var got []string
	for _, l := range rd.Launches {
		got = append(got, fmtAccels(l))
	}
	if want := []string{"fpga=a,b", "fpga=c,d"}; !slices.Equal(got, want) {
		t.Fatalf("launched %q, want %q", got, want)
	}
	why := h.s.WhyPending(h.now, 0)
	if len(why) != 1 || !strings.Contains(why[0].Message, "1 insufficient accelerators (2 fpga per task)") {
		t.Errorf("why pending: %+v", why)
	}
	// The first's end gives its addresses to the third task.
	h.succeed(rd.Launches[0])
	rd = h.ready()
	if len(rd.Launches) != 1 || fmtAccels(rd.Launches[0]) != "fpga=a,b" {
		t.Errorf("after one ended, launched %v", rd.Launches)
	}
}

func TestAcceleratorRequestAtTheExecutorsAmountAndOnePast(t *testing.T) {
	prof := Profile{ID: 0, Cores: 4, Accels: accels(t, map[string]int{"fpga": 2})}
	for _, c := range []struct {
		ask     int
		refused string
	}{{2, ""}, {3, "fpga 3: executors of profile 0 have 2"}} {
		t.Run(fmt.Sprint(c.ask), func(t *testing.T) {
			h := newHarness(t, Config{}, prof)
			if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: "e1", Host: "h1", Cores: 4, Accels: []Assigned{{"fpga", []string{"0", "1"}}}}); err != nil {
				t.Fatal(err)
			}
			spec := oneStage("s", 2, 1, GPURequest{})
			spec.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": c.ask})
			_, err := h.s.SubmitJob(h.now, spec)
			if c.refused != "" {
				wantErr(t, err, c.refused)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rd := h.ready()
			if len(rd.Launches) != 1 || fmtAccels(rd.Launches[0]) != "fpga=0,1" {
				t.Errorf("launched %v, want one task on both FPGAs", rd.Launches)
			}
		})
	}
}

func TestAcceleratorsOfAnotherKindOrNoneAreNotHandedOut(t *testing.T) {
	prof := Profile{ID: 0, Cores: 4, Accels: accels(t, map[string]int{"fpga": 1})}
	h := newHarness(t, Config{}, prof)
	// Registered with a tpu its profile does not name, and no fpga: it
	// may run tasks that ask no fpga, and none that do.
	if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: "e1", Host: "h1", Cores: 4, Accels: []Assigned{{"tpu", []string{"0"}}}}); err != nil {
		t.Fatal(err)
	}
	spec := oneStage("s", 1, 1, GPURequest{})
	spec.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": 1})
	h.submit(spec)
	plain := h.submit(oneStage("plain", 1, 1, GPURequest{}))
	rd := h.ready()
	if len(rd.Launches) != 1 || rd.Launches[0].Job != plain || rd.Launches[0].Accels != nil {
		t.Errorf("launched %v, want the plain task alone, with no accelerator", rd.Launches)
	}
}

func TestNewAcceleratorsBounds(t *testing.T) {
	four := map[string]int{"a": 1, "b": 2, "c": 0, "d": 1, "e": 1}
	a, err := NewAccelerators(four)
	if err != nil {
		t.Fatal(err)
	}
	if a.String() != "1 a, 2 b, 1 d, 1 e" || a.Len() != MaxAccelerators {
		t.Errorf("got %v (%d kinds)", a, a.Len())
	}
	four["f"] = 1
	_, err = NewAccelerators(four)
	wantErr(t, err, "5 accelerators (a, b, d, e, f): at most 4")
	_, err = NewAccelerators(map[string]int{"x": -1})
	wantErr(t, err, "accelerator x: amount -1 cannot be negative")
	if err := (Profile{ID: 1, Cores: 1, Accels: Accelerators{{"b", 1}, {"a", 1}}}).validate(); err == nil || !strings.Contains(err.Error(), "not in order") {
		t.Errorf("unsorted accelerators: %v", err)
	}
}

func TestTasksPerExecutorCountsAccelerators(t *testing.T) {
	p := Profile{Cores: 8, GPUs: 4, Accels: accels(t, map[string]int{"fpga": 5})}
	r := TaskRequest{CPUs: 1, GPU: WholeGPUs(1), Accels: accels(t, map[string]int{"fpga": 2})}
	if n := p.TasksPerExecutor(r); n != 2 {
		t.Errorf("%d tasks per executor, want 2 (5 FPGAs of 2 each bound it)", n)
	}
}

func TestAdoptHoldingAccelerators(t *testing.T) {
	prof := Profile{ID: 0, Cores: 4, Accels: accels(t, map[string]int{"fpga": 2})}
	h := newHarness(t, Config{}, prof)
	if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: "e1", Host: "h1", Cores: 4, Accels: []Assigned{{"fpga", []string{"0", "1"}}}}); err != nil {
		t.Fatal(err)
	}
	spec := oneStage("s", 2, 1, GPURequest{})
	spec.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": 1})
	h.submit(spec)
	id := AttemptID{Task: TaskID{Stage: 0, Index: 0}}
	wantErr(t, h.s.AdoptHolding(h.now, "e1", id, nil, []Assigned{{"fpga", []string{"7"}}}), `fpga address "7" is not the executor's`)
	wantErr(t, h.s.AdoptHolding(h.now, "e1", id, nil, []Assigned{{"tpu", []string{"0"}}}), "holds tpu, which its stage does not ask for")
	if err := h.s.AdoptHolding(h.now, "e1", id, nil, []Assigned{{"fpga", []string{"1"}}}); err != nil {
		t.Fatal(err)
	}
	rd := h.ready()
	if len(rd.Launches) != 1 || fmtAccels(rd.Launches[0]) != "fpga=0" {
		t.Errorf("launched %v, want the other task on the FPGA the adopted one does not hold", rd.Launches)
	}
}

func TestAcceleratorsWithinAtTheAmountAndOnePast(t *testing.T) {
	have := accels(t, map[string]int{"fpga": 2, "tpu": 1})
	for _, c := range []struct {
		want map[string]int
		ok   bool
	}{{map[string]int{"fpga": 2}, true}, {map[string]int{"fpga": 2, "tpu": 1}, true}, {map[string]int{"fpga": 3}, false},
		{map[string]int{"tpu": 2}, false}, {map[string]int{"vpu": 1}, false}, {nil, true}} {
		if got := accels(t, c.want).Within(have); got != c.ok {
			t.Errorf("%v within %v: %v, want %v", c.want, have, got, c.ok)
		}
	}
}

// An adoption refused for one of its resources takes none of the others:
// what it took first is given back.
func TestAdoptRefusedTakesNothing(t *testing.T) {
	prof := Profile{ID: 0, Cores: 4, GPUs: 1, Accels: accels(t, map[string]int{"fpga": 1, "tpu": 1})}
	h := newHarness(t, Config{}, prof)
	if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: "e1", Host: "h1", Cores: 4, GPUs: []string{"g"},
		Accels: []Assigned{{"fpga", []string{"f"}}, {"tpu", []string{"t"}}}}); err != nil {
		t.Fatal(err)
	}
	spec := oneStage("s", 1, 1, WholeGPUs(1))
	spec.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": 1, "tpu": 1})
	h.submit(spec)
	id := AttemptID{Task: TaskID{Stage: 0, Index: 0}}
	// The tpu is not the executor's: the fpga taken before it goes back.
	wantErr(t, h.s.AdoptHolding(h.now, "e1", id, []string{"g"}, []Assigned{{"fpga", []string{"f"}}, {"tpu", []string{"x"}}}), `tpu address "x"`)
	// The GPU is not the executor's: both accelerators go back.
	wantErr(t, h.s.AdoptHolding(h.now, "e1", id, []string{"x"}, []Assigned{{"fpga", []string{"f"}}, {"tpu", []string{"t"}}}), `GPU address "x"`)
	rd := h.ready()
	if len(rd.Launches) != 1 || fmtAccels(rd.Launches[0]) != "fpga=f tpu=t" || strings.Join(rd.Launches[0].Addresses, ",") != "g" {
		t.Errorf("launched %v, want the task on everything the refused adoptions left", rd.Launches)
	}
}

// A gang counts accelerators as it counts GPUs: 4 cores but 2 FPGAs hold
// 2 tasks of 1 FPGA, not a gang of 3, which launches, each on its own
// FPGA, once a second executor brings the third; and the addresses a
// failed fit held for a moment are all given back.
func TestGangFitsAccelerators(t *testing.T) {
	prof := Profile{ID: 0, Cores: 4, Accels: accels(t, map[string]int{"fpga": 2})}
	h := newHarness(t, Config{}, prof)
	add := func(id, host string) {
		if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: ExecutorID(id), Host: host, Cores: 4,
			Accels: []Assigned{{"fpga", []string{"0", "1"}}}}); err != nil {
			t.Fatal(err)
		}
	}
	add("e1", "h1")
	spec := oneStage("g", 3, 1, GPURequest{})
	spec.Stages[0].Gang = true
	spec.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": 1})
	h.submit(spec)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("2 FPGAs for a gang of 3: launched %s", fmtLaunches(rd.Launches))
	}
	add("e2", "h2")
	rd := h.ready()
	var got []string
	for _, l := range rd.Launches {
		got = append(got, string(l.Executor)+":"+fmtAccels(l))
	}
	if want := []string{"e1:fpga=0", "e1:fpga=1", "e2:fpga=0"}; !slices.Equal(got, want) {
		t.Fatalf("launched %q, want %q", got, want)
	}
}

// A gang's fit that finds a GPU free but no FPGA beside it gives the GPU
// back: once the gang that could not fit is cancelled, an ordinary
// stage has both GPUs.
func TestGangFitShortOfAcceleratorsGivesBackItsGPUs(t *testing.T) {
	prof := Profile{ID: 0, Cores: 4, GPUs: 2, Accels: accels(t, map[string]int{"fpga": 1})}
	h := newHarness(t, Config{}, prof)
	if err := h.s.AddExecutor(h.now, ExecutorSpec{ID: "e1", Host: "h1", Cores: 4, GPUs: []string{"0", "1"},
		Accels: []Assigned{{"fpga", []string{"0"}}}}); err != nil {
		t.Fatal(err)
	}
	gang := oneStage("g", 2, 1, gpu(t, 1))
	gang.Stages[0].Gang = true
	gang.Stages[0].Request.Accels = accels(t, map[string]int{"fpga": 1})
	id := h.submit(gang)
	if rd := h.ready(); len(rd.Launches) != 0 {
		t.Fatalf("1 FPGA for a gang of 2: launched %s", fmtLaunches(rd.Launches))
	}
	if err := h.s.CancelJob(id, "test"); err != nil {
		t.Fatal(err)
	}
	h.submit(oneStage("s", 2, 1, gpu(t, 1)))
	if got := fmtLaunches(h.ready().Launches); got != "s1/0#0@e1[0] s1/1#0@e1[1]" {
		t.Errorf("after the gang: launches %s, want both GPUs used", got)
	}
}
