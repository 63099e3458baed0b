package yarn_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

func TestApplicationIDRoundTrip(t *testing.T) {
	for _, s := range []string{"application_1795245077286_0001", "application_1_12345"} {
		id, err := yarn.ParseApplicationID(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := yarn.ApplicationID(id); got != s {
			t.Errorf("%s printed back as %s", s, got)
		}
	}
	for _, bad := range []string{"", "application_1", "app_1_2", "application_x_1", "application_1_x", "application_1_2_3", "application_-1_2"} {
		if _, err := yarn.ParseApplicationID(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestContainerIDFormat(t *testing.T) {
	id := func(n int64) *hadoopyarn.ContainerIdProto {
		return &hadoopyarn.ContainerIdProto{Id: proto.Int64(n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{
			AttemptId: proto.Int32(1), ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(1795245077286), Id: proto.Int32(7)}}}
	}
	if got := yarn.ContainerID(id(2)); got != "container_1795245077286_0007_01_000002" {
		t.Errorf("got %s", got)
	}
	if got := yarn.ContainerID(id(3<<40 | 5)); got != "container_e03_1795245077286_0007_01_000005" {
		t.Errorf("with epoch: got %s", got)
	}
}

// A container id reads back as it prints, epoch included, and names its
// attempt; anything else is refused, naming it.
func TestParseContainerID(t *testing.T) {
	for _, c := range []struct{ id, attempt string }{
		{"container_1795245077286_0007_01_000002", "appattempt_1795245077286_0007_000001"},
		{"container_e03_1795245077286_0007_02_000005", "appattempt_1795245077286_0007_000002"},
		{"container_1_12345_100_1099511627775", "appattempt_1_12345_000100"},
	} {
		id, err := yarn.ParseContainerID(c.id)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		if got := yarn.ContainerID(id); got != c.id {
			t.Errorf("%s printed back as %s", c.id, got)
		}
		if got := yarn.ApplicationAttemptID(id.GetAppAttemptId()); got != c.attempt {
			t.Errorf("%s: attempt %s, want %s", c.id, got, c.attempt)
		}
	}
	for _, bad := range []string{"", "container_1_2_3", "container_e1_2_3_4", "ctr_1_2_3_4", "container_1_2_3_x", "container_1_2_3_1099511627776",
		"container_ex_1_2_3_4", "container_e-1_1_2_3_4", "container_1_2_-3_4", "container_e01_e02_1_2_3_4", "container_1_2_3_4_5"} {
		if _, err := yarn.ParseContainerID(bad); err == nil || !strings.Contains(err.Error(), "not a container id") {
			t.Errorf("%q: %v, want it refused", bad, err)
		}
	}
}

// Whatever ParseContainerID accepts prints back to the same id.
func FuzzParseContainerID(f *testing.F) {
	for _, s := range []string{"container_1795245077286_0007_01_000002", "container_e03_1_2_3_4", "container_1_2_3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := yarn.ParseContainerID(s)
		if err != nil {
			return
		}
		again, err := yarn.ParseContainerID(yarn.ContainerID(id))
		if err != nil || !proto.Equal(again, id) {
			t.Fatalf("%q → %s → %v, %v", s, yarn.ContainerID(id), again, err)
		}
	})
}
