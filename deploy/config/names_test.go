package config

import "testing"

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 4, 0},
		{"abc", "abc", 4, 0},
		{"abc", "abd", 4, 1},
		{"abc", "ab", 4, 1},
		{"kitten", "sitting", 4, 3},
		{"kitten", "sitting", 3, 3}, // capped at the limit
		{"a", "abcdefgh", 4, 4},     // length alone exceeds the limit
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

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
