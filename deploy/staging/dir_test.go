package staging

import "testing"

func TestStagingDir(t *testing.T) {
	for _, tc := range []struct{ template, want string }{
		{"", "/user/alice/.spindle/application_1_0001"},
		{DefaultDir, "/user/alice/.spindle/application_1_0001"},
		{"/user/${USER}/.spindle", "/user/alice/.spindle/application_1_0001"},
		{"/tmp/staging/", "/tmp/staging/application_1_0001"},
		{"/tmp/$USER-$USER", "/tmp/alice-alice/application_1_0001"},
		{"/tmp/$USERNAME/x", "/tmp/$USERNAME/x/application_1_0001"},
		{"/tmp/$USER_x/$USER", "/tmp/$USER_x/alice/application_1_0001"},
	} {
		if got := StagingDir(tc.template, "alice", "application_1_0001"); got != tc.want {
			t.Errorf("StagingDir(%q) = %q, want %q", tc.template, got, tc.want)
		}
	}
}
