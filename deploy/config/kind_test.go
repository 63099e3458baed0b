package config

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Each case sets one key with --conf and reads it back with its kind's
// getter, or expects Load to fail with an error naming key, value and
// source.
func TestValuesByKind(t *testing.T) {
	tests := []struct {
		key, value string
		want       any    // the getter's result when valid
		err        string // the error's tail when not
	}{
		// int
		{key: "spindle.executor.instances", value: "8", want: 8},
		{key: "spindle.executor.instances", value: " +3 ", want: 3},
		{key: "spindle.executor.instances", value: "0", want: 0},
		{key: "spindle.executor.instances", value: "-1", err: "must be at least 0"},
		{key: "spindle.executor.instances", value: "2.5", err: "not a whole number"},
		{key: "spindle.executor.instances", value: "1_000", err: "not a whole number"},
		{key: "spindle.executor.instances", value: "", err: "not a whole number"},
		{key: "spindle.task.maxFailures", value: "0", err: "must be at least 1"},
		{key: "spindle.task.maxFailures", value: "100", want: 100},
		{key: "spindle.task.maxFailures", value: "101", err: "must be at most 100"},
		{key: "spindle.task.maxFailures", value: "1000000000000", err: "must be at most 100"},
		{key: "spindle.dynamicAllocation.maxExecutors", value: "0", err: "must be at least 1"},

		// bool
		{key: "spindle.dynamicAllocation.enabled", value: "true", want: true},
		{key: "spindle.dynamicAllocation.enabled", value: "FALSE", want: false},
		{key: "spindle.dynamicAllocation.enabled", value: "True", want: true},
		{key: "spindle.dynamicAllocation.enabled", value: "1", err: "not true or false"},
		{key: "spindle.dynamicAllocation.enabled", value: "yes", err: "not true or false"},

		// float
		{key: "spindle.dynamicAllocation.executorAllocationRatio", value: "0.5", want: 0.5},
		{key: "spindle.dynamicAllocation.executorAllocationRatio", value: "1", want: 1.0},
		{key: "spindle.dynamicAllocation.executorAllocationRatio", value: "0", err: "want a number more than 0 and at most 1"},
		{key: "spindle.dynamicAllocation.executorAllocationRatio", value: "1.5", err: "want a number more than 0 and at most 1"},
		{key: "spindle.dynamicAllocation.executorAllocationRatio", value: "NaN", err: "not a finite number"},
		{key: "spindle.dynamicAllocation.executorAllocationRatio", value: "Inf", err: "not a finite number"},
		{key: "spindle.task.resource.gpu.amount", value: "0.25", want: 0.25},
		{key: "spindle.task.resource.gpu.amount", value: "2", want: 2.0},
		{key: "spindle.task.resource.gpu.amount", value: "1.5", err: "want a whole number of GPUs, or a fraction"},
		{key: "spindle.task.resource.gpu.amount", value: "-0.5", err: "want a whole number of GPUs, or a fraction"},

		// duration, a bare number in seconds
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "90", want: 90 * time.Second},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "250ms", want: 250 * time.Millisecond},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "2min", want: 2 * time.Minute},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "2M", want: 2 * time.Minute},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "1h", want: time.Hour},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "1d", want: 24 * time.Hour},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "7us", want: 7 * time.Microsecond},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "0", want: time.Duration(0)},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "-5s", err: "negative durations are not allowed"},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "5 s", err: `unknown time unit " s"`},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "5sec", err: `unknown time unit "sec"`},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "1.5s", err: `unknown time unit ".5s"`},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "1h30m", err: `unknown time unit "h30m"`},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "s", err: "not a duration"},
		{key: "spindle.dynamicAllocation.executorIdleTimeout", value: "9999999999999d", err: "duration too long"},
		{key: "spindle.dynamicAllocation.schedulerBacklogTimeout", value: "0s", err: "must be more than 0"},
		{key: "spindle.task.retry.backoff", value: "0", err: "must be more than 0"},
		// duration, a bare number in milliseconds
		{key: "spindle.locality.wait", value: "500", want: 500 * time.Millisecond},
		{key: "spindle.locality.wait", value: "0", want: time.Duration(0)},
		{key: "spindle.excludeOnFailure.timeout", value: "1800000", want: 30 * time.Minute},
		{key: "spindle.task.retry.maxBackoff", value: "500", want: 500 * time.Millisecond},

		// size, a bare number in MiB
		{key: "spindle.executor.memory", value: "4g", want: int64(4096)},
		{key: "spindle.executor.memory", value: "4GB", want: int64(4096)},
		{key: "spindle.executor.memory", value: "512", want: int64(512)},
		{key: "spindle.executor.memory", value: "512m", want: int64(512)},
		{key: "spindle.executor.memory", value: "512mb", want: int64(512)},
		{key: "spindle.executor.memory", value: "2048k", want: int64(2)},
		{key: "spindle.executor.memory", value: "1t", want: int64(1 << 20)},
		{key: "spindle.executor.memory", value: "1073741824b", want: int64(1024)},
		{key: "spindle.executor.memory", value: "1536k", err: "not a whole number of MiB"},
		{key: "spindle.executor.memory", value: "1.5g", err: "fractional sizes are not supported"},
		{key: "spindle.executor.memory", value: "-1g", err: "negative sizes are not allowed"},
		{key: "spindle.executor.memory", value: "4x", err: `unknown size unit "x"`},
		{key: "spindle.executor.memory", value: "g", err: "not a size"},
		{key: "spindle.executor.memory", value: "0", err: "must be at least 1m"},
		{key: "spindle.executor.memory", value: "99999999p", err: "size too large"},

		// enum
		{key: "spindle.scheduler.mode", value: "FAIR", want: "FAIR"},
		{key: "spindle.scheduler.mode", value: "fair", want: "FAIR"},
		{key: "spindle.scheduler.mode", value: "LIFO", err: "not one of FIFO, FAIR"},
		{key: "spindle.yarn.mode", value: "fine", want: "fine"},
		{key: "spindle.dynamicAllocation.policy", value: "Spark", want: "spark"},

		// string
		{key: "spindle.yarn.queue", value: " gpu ", want: " gpu "},
		{key: "spindle.master", value: "yarn", want: "yarn"},
		{key: "spindle.master", value: "local[16]", want: "local[16]"},
		{key: "spindle.master", value: "local[*]", want: "local[*]"},
		{key: "spindle.master", value: "local[0]", err: "N, the executor count, must be from 1 to 999999"},
		{key: "spindle.master", value: "spark://h:7077", err: "want local, local[N], local[*] or yarn"},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			c, err := loadText("", tt.key+"="+tt.value)
			if tt.err != "" {
				want := "--conf: " + tt.key + "=" + strconv.Quote(tt.value) + ": " + tt.err
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("err = %v, want one containing %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			got, err := getByKind(c, tt.key)
			if err != nil || got != tt.want {
				t.Errorf("got %#v, %v; want %#v", got, err, tt.want)
			}
		})
	}
}

// getByKind reads a key with the getter its kind calls for.
func getByKind(c *Config, key string) (any, error) {
	switch byName[key].Kind {
	case KindString:
		return c.String(key)
	case KindInt:
		return c.Int(key)
	case KindBool:
		return c.Bool(key)
	case KindFloat:
		return c.Float(key)
	case KindDuration:
		return c.Duration(key)
	case KindSize:
		return c.SizeMiB(key)
	case KindEnum:
		return c.Enum(key)
	case KindBytes:
		return c.Bytes(key)
	}
	return nil, nil
}

func TestDurationOverflowAtTheBoundary(t *testing.T) {
	max := math.MaxInt64 / int64(time.Hour)
	if _, err := parseDuration(strconv.FormatInt(max, 10)+"h", time.Second); err != nil {
		t.Errorf("%dh: %v", max, err)
	}
	if _, err := parseDuration(strconv.FormatInt(max+1, 10)+"h", time.Second); err == nil {
		t.Errorf("%dh: no error, want too long", max+1)
	}
}
