package yarn_test

import (
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
