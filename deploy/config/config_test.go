package config

import (
	"slices"
	"strings"
	"testing"
)

func TestGettersRejectCallerMistakes(t *testing.T) {
	c := mustLoad(t, "")
	if _, err := c.Int("spindle.no.such.key"); err == nil || !strings.Contains(err.Error(), `"spindle.no.such.key" is not a registered key`) {
		t.Errorf("unknown key: err = %v", err)
	}
	if _, err := c.String("spark.master"); err == nil || !strings.Contains(err.Error(), "not a registered key") {
		t.Errorf("getters take registry names, not aliases: err = %v", err)
	}
	if _, err := c.Int("spindle.executor.memory"); err == nil || !strings.Contains(err.Error(), "spindle.executor.memory is of kind size, read as int") {
		t.Errorf("wrong kind: err = %v", err)
	}
	if _, err := c.String("spindle.scheduler.mode"); err == nil || !strings.Contains(err.Error(), "is of kind enum, read as string") {
		t.Errorf("enum read as string: err = %v", err)
	}
	if got := c.Source("spindle.no.such.key"); got != (Source{}) {
		t.Errorf("Source of an unknown key = %v, want the zero Source", got)
	}
}

func TestSettingsListEveryKeySortedWithSources(t *testing.T) {
	c := mustLoad(t, "spark.executor.memory 4g\nspindle.master yarn", "spindle.task.cpus=2")
	settings := c.Settings()
	if len(settings) != len(registry) {
		t.Fatalf("%d settings, want one per registry key (%d)", len(settings), len(registry))
	}
	if !slices.IsSortedFunc(settings, func(a, b Setting) int { return strings.Compare(a.Key, b.Key) }) {
		t.Errorf("settings not sorted by key")
	}
	lines := map[string]bool{}
	for _, s := range settings {
		lines[s.String()] = true
	}
	for _, want := range []string{
		"spindle.executor.memory=4g (test.conf:1 as spark.executor.memory)",
		"spindle.master=yarn (test.conf:2)",
		"spindle.task.cpus=2 (--conf)",
		"spindle.yarn.queue=default (default)",
		"spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout=1s (default: follows spindle.dynamicAllocation.schedulerBacklogTimeout)",
	} {
		if !lines[want] {
			t.Errorf("no setting prints as %q", want)
		}
	}
}

func TestIgnoredSparkKeysIsACopy(t *testing.T) {
	c := mustLoad(t, "spark.serializer x")
	c.IgnoredSparkKeys()[0] = "changed"
	if got := c.IgnoredSparkKeys(); !slices.Equal(got, []string{"spark.serializer"}) {
		t.Errorf("IgnoredSparkKeys = %q after a caller changed its copy", got)
	}
}
