package yarn

import (
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
)

// ApplicationID prints an application id as YARN does:
// application_<cluster timestamp>_<id, at least 4 digits>.
func ApplicationID(id *hadoopyarn.ApplicationIdProto) string {
	return fmt.Sprintf("application_%d_%04d", id.GetClusterTimestamp(), id.GetId())
}

// ParseApplicationID reads application_<cluster timestamp>_<id>.
func ParseApplicationID(s string) (*hadoopyarn.ApplicationIdProto, error) {
	parts := strings.Split(s, "_")
	if len(parts) != 3 || parts[0] != "application" {
		return nil, fmt.Errorf("%q is not an application id: want application_<cluster timestamp>_<number>", s)
	}
	ts, err1 := strconv.ParseInt(parts[1], 10, 64)
	n, err2 := strconv.ParseInt(parts[2], 10, 32)
	if err1 != nil || err2 != nil || ts < 0 || n < 0 {
		return nil, fmt.Errorf("%q is not an application id: want application_<cluster timestamp>_<number>", s)
	}
	return &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(ts), Id: proto.Int32(int32(n))}, nil
}

// ContainerID prints a container id as YARN does:
// container_[e<epoch>_]<cluster timestamp>_<app, 4+ digits>_<attempt, 2+
// digits>_<container, 6+ digits>. The id's low 40 bits are the container's
// number, the bits above them the RM's epoch (how many times it restarted).
func ContainerID(id *hadoopyarn.ContainerIdProto) string {
	attempt := id.GetAppAttemptId()
	app := attempt.GetApplicationId()
	n := id.GetId()
	epoch := n >> 40
	prefix := "container_"
	if epoch > 0 {
		prefix += fmt.Sprintf("e%02d_", epoch)
	}
	return fmt.Sprintf("%s%d_%04d_%02d_%06d", prefix, app.GetClusterTimestamp(), app.GetId(), attempt.GetAttemptId(), n&(1<<40-1))
}

// ApplicationAttemptID prints an attempt id as YARN does:
// appattempt_<cluster timestamp>_<app, 4+ digits>_<attempt, 6+ digits>.
func ApplicationAttemptID(id *hadoopyarn.ApplicationAttemptIdProto) string {
	app := id.GetApplicationId()
	return fmt.Sprintf("appattempt_%d_%04d_%06d", app.GetClusterTimestamp(), app.GetId(), id.GetAttemptId())
}

// ParseContainerID reads a container id as ContainerID prints it (the
// NodeManager gives a container its own in CONTAINER_ID).
func ParseContainerID(s string) (*hadoopyarn.ContainerIdProto, error) {
	bad := fmt.Errorf("%q is not a container id: want container_[e<epoch>_]<cluster timestamp>_<app>_<attempt>_<container>", s)
	parts := strings.Split(s, "_")
	if len(parts) < 5 || parts[0] != "container" {
		return nil, bad
	}
	var epoch int64
	if e, ok := strings.CutPrefix(parts[1], "e"); ok {
		var err error
		if epoch, err = strconv.ParseInt(e, 10, 24); err != nil || epoch < 0 {
			return nil, bad
		}
		parts = parts[1:]
	}
	if len(parts) != 5 {
		return nil, bad
	}
	ts, err1 := strconv.ParseInt(parts[1], 10, 64)
	app, err2 := strconv.ParseInt(parts[2], 10, 32)
	attempt, err3 := strconv.ParseInt(parts[3], 10, 32)
	n, err4 := strconv.ParseInt(parts[4], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || ts < 0 || app < 0 || attempt < 0 || n < 0 || n >= 1<<40 {
		return nil, bad
	}
	return &hadoopyarn.ContainerIdProto{Id: proto.Int64(epoch<<40 | n), AppAttemptId: &hadoopyarn.ApplicationAttemptIdProto{
		AttemptId: proto.Int32(int32(attempt)), ApplicationId: &hadoopyarn.ApplicationIdProto{ClusterTimestamp: proto.Int64(ts), Id: proto.Int32(int32(app))}}}, nil
}
