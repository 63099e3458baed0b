package config

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/scheduler"
)

func TestParseMasterSparkForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Master
		err  string
	}{
		{in: "yarn", want: Master{Yarn: true}},
		{in: "local", want: Master{Executors: 1}},
		{in: "local[1]", want: Master{Executors: 1}},
		{in: "local[999999]", want: Master{Executors: 999999}},
		{in: "local[1000000]", err: "N, the executor count, must be from 1 to 999999"},
		{in: "local[99999999999999999999]", err: "N, the executor count, must be from 1 to 999999"},
		{in: "local[0]", err: "N, the executor count, must be from 1 to 999999"},
		{in: "local[*]", want: Master{}},
		{in: "local[4,3]", want: Master{Executors: 4, MaxFailures: 3}},
		{in: "local[*, 2]", want: Master{MaxFailures: 2}},
		{in: "local[2,2147483647]", want: Master{Executors: 2, MaxFailures: 2147483647}},
		{in: "local[2,2147483648]", err: "F, the attempts per task, must be from 1 to 2147483647"},
		{in: "local[2,0]", err: "F, the attempts per task, must be from 1 to 2147483647"},
		{in: "local[2,]", err: "want local, local[N], local[*] or yarn"},
		{in: "local[ 2]", err: "want local, local[N], local[*] or yarn"},
		{in: "local[-2]", err: "want local, local[N], local[*] or yarn"},
		{in: "local[+2]", err: "want local, local[N], local[*] or yarn"},
		{in: "local[2", err: "want local, local[N], local[*] or yarn"},
		{in: "local[]", err: "want local, local[N], local[*] or yarn"},
		{in: "lcal", err: "want local, local[N], local[*] or yarn"},
		{in: "Yarn", err: "want local, local[N], local[*] or yarn"},
		{in: "local-cluster[2,1,1024]", err: "want local, local[N], local[*] or yarn"},
	} {
		got, err := ParseMaster(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("ParseMaster(%q) = %+v, %v; want error %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseMaster(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestLocalStarFillsTheCoresWithExecutors(t *testing.T) {
	star := Master{}
	for _, c := range []struct{ cores, executorCores, want int }{
		{8, 1, 8}, {8, 2, 4}, {8, 3, 2}, {2, 4, 1}, {1, 1, 1},
	} {
		if got := star.LocalExecutors(c.cores, c.executorCores); got != c.want {
			t.Errorf("local[*] on %d cores, executors of %d: %d executors, want %d", c.cores, c.executorCores, got, c.want)
		}
	}
	if got := (Master{Executors: 3}).LocalExecutors(64, 1); got != 3 {
		t.Errorf("local[3] on 64 cores: %d executors, want 3", got)
	}
}

func TestLocalMasterFailuresSetMaxFailuresUnlessItIsSet(t *testing.T) {
	c := mustLoad(t, "", "spindle.master=local[2,3]")
	if n, _ := c.Int("spindle.task.maxFailures"); n != 3 {
		t.Errorf("local[2,3]: maxFailures = %d, want F = 3", n)
	}
	if c.IsSet("spindle.task.maxFailures") {
		t.Errorf("maxFailures from local[N,F] counts as set by a source")
	}
	for _, s := range c.Settings() {
		if s.Key == "spindle.task.maxFailures" && s.String() != "spindle.task.maxFailures=3 (default: follows spindle.master)" {
			t.Errorf("setting prints as %q", s)
		}
	}

	c = mustLoad(t, "spark.task.maxFailures 7", "spindle.master=local[2,3]")
	if n, _ := c.Int("spindle.task.maxFailures"); n != 7 {
		t.Errorf("local[2,3] and maxFailures 7 set: maxFailures = %d, want the key's 7", n)
	}
	limit := strconv.Itoa(scheduler.MaxAttemptsLimit)
	c = mustLoad(t, "", "spindle.master=local[2,"+limit+"]")
	if n, _ := c.Int("spindle.task.maxFailures"); n != scheduler.MaxAttemptsLimit {
		t.Errorf("local[2,%s]: maxFailures = %d, want F", limit, n)
	}
	over := strconv.Itoa(scheduler.MaxAttemptsLimit + 1)
	_, err := Load(nil, nil, Flag{Name: "--master", Key: "spindle.master", Value: "local[2," + over + "]"})
	if want := "--master 'local[2," + over + "]': F sets spindle.task.maxFailures: must be at most " + limit; err == nil || err.Error() != want {
		t.Errorf("F above the key's bound: err = %v, want %q", err, want)
	}

	c = mustLoad(t, "", "spindle.master=local[2]")
	if n, _ := c.Int("spindle.task.maxFailures"); n != 4 {
		t.Errorf("local[2]: maxFailures = %d, want the default 4", n)
	}
}

func TestFlagErrorsNameTheFlag(t *testing.T) {
	_, err := Load(nil, nil, Flag{Name: "--master", Key: "spindle.master", Value: "lcal"})
	if err == nil || err.Error() != "--master lcal: want local, local[N], local[*] or yarn" {
		t.Errorf("--master lcal: err = %v", err)
	}
	_, err = Load(nil, nil, Flag{Name: "--master", Key: "spindle.master", Value: "local[0]"})
	if err == nil || err.Error() != "--master 'local[0]': N, the executor count, must be from 1 to 999999" {
		t.Errorf("--master local[0]: err = %v", err)
	}
	_, err = loadText("spark.master lcal")
	if err == nil || err.Error() != `test.conf:1: spark.master (spindle.master)="lcal": want local, local[N], local[*] or yarn` {
		t.Errorf("a file's master: err = %v", err)
	}
	_, err = loadText("", "spindle.master=lcal")
	if err == nil || err.Error() != `--conf: spindle.master="lcal": want local, local[N], local[*] or yarn` {
		t.Errorf("--conf's master: err = %v", err)
	}
}

func TestFlagsWinOverConfAndFiles(t *testing.T) {
	c, err := Load([]PropertiesFile{{Name: "f", Text: strings.NewReader("spindle.master yarn")}}, []string{"spark.master=yarn"},
		Flag{Name: "--master", Key: "spindle.master", Value: "local[3]"})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := c.String("spindle.master"); m != "local[3]" || c.Source("spindle.master") != (Source{Flag: "--master"}) {
		t.Errorf("master = %s from %v, want the flag's local[3]", m, c.Source("spindle.master"))
	}
}

// FuzzParseMaster: any text is read or refused without a panic, and what
// is read is within local mode's bounds.
func FuzzParseMaster(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMaster(s)
		if err != nil {
			return
		}
		if m.Yarn != (s == "yarn") || !m.Yarn && !strings.HasPrefix(s, "local") {
			t.Fatalf("ParseMaster(%q) = %+v", s, m)
		}
		if m.Executors < 0 || m.Executors > maxLocalExecutors || m.MaxFailures < 0 || m.MaxFailures > math.MaxInt32 {
			t.Fatalf("ParseMaster(%q) = %+v: out of bounds", s, m)
		}
	})
}
