package history

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"
)

// The hand-written lines of attempts starting and ending read back as
// encoding/json's do.
func TestTheFastEncodingReadsAsJSONs(t *testing.T) {
	when := time.Date(2026, 11, 26, 12, 0, 0, 123456789, time.UTC)
	for _, e := range []Event{
		{Time: when, TaskStarted: &TaskStarted{Stage: 7, Index: 99999, Attempt: 2, Executor: "container_1_0001_01_000002", GPUs: []string{"0", "3"}}},
		{Time: when, TaskStarted: &TaskStarted{Stage: 0, Index: 0, Executor: "exec-1"}},
		{Time: when, TaskStarted: &TaskStarted{Stage: 3, Index: 1, Executor: "exec-2", GPUs: []string{"1"},
			Accels: []Resource{{Name: "fpga", Addresses: []string{"0", "1"}}, {Name: "t\"pu", Addresses: nil}}}},
		{Time: when.In(time.FixedZone("x", 3600)), TaskEnded: &TaskEnded{Stage: 1, Index: 2, Attempt: 1, Executor: "e", State: TaskFailed, ExitCode: -9, Reason: "killed by \"signal\" 9\n<&>"}},
		{Time: when, TaskEnded: &TaskEnded{Stage: 1, Index: 2, Executor: "é\x00\\", State: TaskSucceeded}},
		{Time: when, TaskEnded: &TaskEnded{Stage: 1, Index: 2, Executor: "\x80\xff", State: TaskFailed, Reason: "a\x80"}},
	} {
		fast, err := appendEvent(nil, &e)
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := json.Marshal(&e)
		var a, b Event
		if err := json.Unmarshal(fast, &a); err != nil {
			t.Fatalf("%s: %v", fast, err)
		}
		json.Unmarshal(slow, &b)
		if !a.Time.Equal(e.Time) {
			t.Errorf("fast %s reads %v, want %v", fast, a.Time, e.Time)
		}
		a.Time, b.Time = e.Time, e.Time // in UTC, the same instant
		if !reflect.DeepEqual(a, b) {
			t.Errorf("fast %s\nreads %+v\nslow %s\nreads %+v", fast, a, slow, b)
		}
		if _, err := Decode(fast); err != nil {
			t.Errorf("%s: %v", fast, err)
		}
		if !utf8.Valid(fast) {
			t.Errorf("%q is not UTF-8, as every line of the log is", fast)
		}
	}
}

func FuzzTheFastEncoding(f *testing.F) {
	f.Add("exec-1", "0", "exit status 3", int64(3), 5, -1)
	f.Fuzz(func(t *testing.T, executor, gpu, reason string, stage int64, index, code int) {
		for _, e := range []Event{
			{Time: time.Unix(0, stage).UTC(), TaskStarted: &TaskStarted{Stage: stage, Index: index, Executor: executor, GPUs: []string{gpu}}},
			{Time: time.Unix(0, stage).UTC(), TaskEnded: &TaskEnded{Stage: stage, Index: index, Executor: executor, State: TaskFailed, ExitCode: code, Reason: reason}},
		} {
			fast, _ := appendEvent(nil, &e)
			slow, _ := json.Marshal(&e)
			if !utf8.Valid(fast) {
				t.Errorf("%q is not UTF-8", fast)
			}
			var a, b Event
			if err := json.Unmarshal(fast, &a); err != nil {
				t.Fatalf("%q: %v", fast, err)
			}
			json.Unmarshal(slow, &b)
			if !a.Time.Equal(b.Time) {
				t.Errorf("fast %q reads %v; slow %v", fast, a.Time, b.Time)
			}
			a.Time, b.Time = e.Time, e.Time
			if !reflect.DeepEqual(a, b) {
				t.Errorf("fast %q reads %+v; slow %q reads %+v", fast, a, slow, b)
			}
		}
	})
}

// One encoder writes each line's own time: within a second, across
// seconds forward and back, with leading zeros in the nanoseconds.
func TestTheEncoderKeepsEachLinesTime(t *testing.T) {
	var enc encoder
	base := time.Date(2026, 12, 31, 23, 59, 59, 5, time.UTC)
	for _, when := range []time.Time{base, base.Add(time.Millisecond), base.Add(time.Second), base.Add(-time.Hour),
		base.In(time.FixedZone("x", -5*3600)), base.Add(999999995)} {
		line, _ := enc.appendEvent(nil, &Event{Time: when, TaskEnded: &TaskEnded{State: TaskSucceeded}})
		got, err := Decode(line)
		if err != nil || !got[0].Time.Equal(when) {
			t.Errorf("%s reads %v (%v), want %v", line, got[0].Time, err, when)
		}
	}
}
