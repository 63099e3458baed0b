package config

import "testing"

func TestDidYouMean(t *testing.T) {
	tests := []struct{ written, want string }{
		{"spindle.task.cpu", "; did you mean spindle.task.cpus?"},
		{"spindle.TASK.CPUS", "; did you mean spindle.task.cpus? (keys are case-sensitive)"},
		{"task.cpus", "; did you mean spindle.task.cpus?"},
		{"Task.Cpus", "; did you mean spindle.task.cpus?"},
		{"spindle.dynamicAllocation.sustainedSchedulerBacklogTimout", "; did you mean spindle.dynamicAllocation.sustainedSchedulerBacklogTimeout?"},
		{"spindle.completely.different", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := didYouMean(tt.written); got != tt.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tt.written, got, tt.want)
		}
	}
}
