package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"testing"
	"time"

	"github.com/colinmarc/hdfs/v2"
	hdfsconf "github.com/colinmarc/hdfs/v2/hadoopconf"
	"github.com/spindle-yarn/spindle/integration/testcluster"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/ipc"
	"github.com/spindle-yarn/spindle/yarnpb/sasl"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
	"google.golang.org/protobuf/proto"
)

// Helpers: clients of the cluster's RPC services, as Spindle makes them
// from the written configuration: the RM's, an unmanaged AM's (the test
// itself), HDFS's.

// userName is the name of the user the tests run as.
func userName(t *testing.T) string {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username
}

// clientConfig reads the cluster's HADOOP_CONF_DIR as Spindle does, so
// addresses and protection come from the written configuration.
func clientConfig(t *testing.T, c *testcluster.Cluster) (*hadoopconf.Conf, ipc.Options) {
	t.Helper()
	conf, err := hadoopconf.Load(hadoopconf.Env{Lookup: os.LookupEnv, System: hadoopconf.SystemProperties(os.LookupEnv)}, c.ConfDir)
	if err != nil {
		t.Fatalf("loading %s: %v", c.ConfDir, err)
	}
	opts, err := yarn.ClientOptions(conf, userName(t))
	if err != nil {
		t.Fatal(err)
	}
	return conf, opts
}

// addresses are service's addresses, as conf gives them.
func addresses(t *testing.T, conf *hadoopconf.Conf, service hadoopconf.RMService) []string {
	t.Helper()
	addrs, err := yarn.Addresses(conf, service)
	if err != nil {
		t.Fatal(err)
	}
	return addrs
}

// applicationClient connects to the RM's client service the written
// configuration names, having checked it names the RMs the cluster
// listens on.
func applicationClient(t *testing.T, c *testcluster.Cluster) *yarn.ApplicationClient {
	t.Helper()
	conf, opts := clientConfig(t, c)
	addrs := addresses(t, conf, hadoopconf.RMAddress)
	if !slices.Equal(addrs, c.RMAddresses) {
		t.Fatalf("configuration gives RM addresses %v, the cluster listens on %v", addrs, c.RMAddresses)
	}
	rm, err := yarn.NewApplicationClient(addrs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rm.Close() })
	return rm
}

// amrmClient connects to the scheduler the configuration names, with the
// application's AMRMToken; qops, when set, overrides the configuration.
func amrmClient(t *testing.T, c *testcluster.Cluster, token *hadoopcommon.TokenProto, qops []sasl.QOP) *yarn.AMRMClient {
	t.Helper()
	conf, opts := clientConfig(t, c)
	opts.Auth.Tokens = []*hadoopcommon.TokenProto{token}
	if qops != nil {
		opts.Auth.QOPs = qops
	}
	am, err := yarn.NewAMRMClient(addresses(t, conf, hadoopconf.RMSchedulerAddress), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { am.Close() })
	return am
}

// nodeAddr is a NodeManager's address, host:port.
func nodeAddr(n *hadoopyarn.NodeIdProto) string {
	return fmt.Sprintf("%s:%d", n.GetHost(), n.GetPort())
}

// submitUnmanaged submits an application whose AM is this test, and returns
// its id and the AMRMToken the RM issues for it.
func submitUnmanaged(ctx context.Context, t *testing.T, rm *yarn.ApplicationClient, name string) (*hadoopyarn.ApplicationIdProto, *hadoopcommon.TokenProto) {
	t.Helper()
	return submitUnmanagedTo(ctx, t, rm, name, "default")
}

// submitUnmanagedTo is submitUnmanaged to queue.
func submitUnmanagedTo(ctx context.Context, t *testing.T, rm *yarn.ApplicationClient, name, queue string) (*hadoopyarn.ApplicationIdProto, *hadoopcommon.TokenProto) {
	t.Helper()
	app, err := rm.GetNewApplication(ctx, &hadoopyarn.GetNewApplicationRequestProto{})
	if err != nil {
		t.Fatalf("getNewApplication: %v", err)
	}
	id := app.GetApplicationId()
	_, err = rm.SubmitApplication(ctx, &hadoopyarn.SubmitApplicationRequestProto{ApplicationSubmissionContext: &hadoopyarn.ApplicationSubmissionContextProto{
		ApplicationId:   id,
		ApplicationName: proto.String(name),
		Queue:           proto.String(queue),
		ApplicationType: proto.String("SPINDLE"),
		UnmanagedAm:     proto.Bool(true),
		MaxAppAttempts:  proto.Int32(1),
		AmContainerSpec: &hadoopyarn.ContainerLaunchContextProto{},
		Resource:        yarn.NewResource(128, 1, nil),
	}})
	if err != nil {
		t.Fatalf("submitApplication: %v", err)
	}
	// The RM issues the AMRMToken once the (unmanaged) attempt is launched.
	for {
		rep, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
		if err != nil {
			t.Fatalf("getApplicationReport: %v", err)
		}
		r := rep.GetApplicationReport()
		if tok := r.GetAmRmToken(); tok != nil {
			if tok.GetKind() != yarn.AMRMTokenKind {
				t.Fatalf("AMRMToken of kind %q", tok.GetKind())
			}
			return id, tok
		}
		if s := r.GetYarnApplicationState(); s == hadoopyarn.YarnApplicationStateProto_FAILED || s == hadoopyarn.YarnApplicationStateProto_KILLED {
			t.Fatalf("application %v ended %v: %s", id, s, r.GetDiagnostics())
		}
		if ctx.Err() != nil {
			t.Fatalf("no AMRMToken for %v (state %v): %v", id, r.GetYarnApplicationState(), ctx.Err())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// unmanagedAM is an application whose AM is the test itself.
type unmanagedAM struct {
	app        *hadoopyarn.ApplicationIdProto
	am         *yarn.AMRMClient
	responseID int32
}

// register registers the AM with the RM, its allocates starting anew.
func (a *unmanagedAM) register(ctx context.Context, t *testing.T) error {
	t.Helper()
	_, err := a.am.RegisterApplicationMaster(ctx, &hadoopyarn.RegisterApplicationMasterRequestProto{
		Host: proto.String("localhost"), RpcPort: proto.Int32(0), TrackingUrl: proto.String(""),
	})
	a.responseID = 0
	return err
}

// asks asks for n containers, anywhere, of mb MB, one core and others
// (accelerators: yarn.GPU, ...).
func (a *unmanagedAM) asks(n int32, mb int64, others map[string]int64) []*hadoopyarn.ResourceRequestProto {
	return []*hadoopyarn.ResourceRequestProto{{
		Priority:      &hadoopyarn.PriorityProto{Priority: proto.Int32(1)},
		ResourceName:  proto.String("*"),
		Capability:    yarn.NewResource(mb, 1, others),
		NumContainers: proto.Int32(n),
		RelaxLocality: proto.Bool(true),
	}}
}

// allocate sends the RM asks (none: a heartbeat), in the allocates'
// sequence.
func (a *unmanagedAM) allocate(ctx context.Context, asks []*hadoopyarn.ResourceRequestProto) (*hadoopyarn.AllocateResponseProto, error) {
	r, err := a.am.Allocate(ctx, &hadoopyarn.AllocateRequestProto{Ask: asks, ResponseId: proto.Int32(a.responseID), Progress: proto.Float32(0.5)})
	if err == nil {
		a.responseID = r.GetResponseId()
	}
	return r, err
}

// heartbeat is allocate, failing t on an error.
func (a *unmanagedAM) heartbeat(ctx context.Context, t *testing.T, asks []*hadoopyarn.ResourceRequestProto) *hadoopyarn.AllocateResponseProto {
	t.Helper()
	r, err := a.allocate(ctx, asks)
	if err != nil {
		t.Fatalf("allocate for %s: %v", yarn.ApplicationID(a.app), err)
	}
	return r
}

// reregister is an AM's part of a work-preserving RM restart: its next
// allocate is refused as not registered; it registers again and goes on.
func (a *unmanagedAM) reregister(ctx context.Context, t *testing.T) {
	t.Helper()
	id := yarn.ApplicationID(a.app)
	for {
		_, err := a.allocate(ctx, nil)
		if errors.Is(err, ipc.ErrApplicationMasterNotRegistered) {
			break
		}
		if err == nil {
			t.Fatalf("allocate for %s after restart-rm succeeded; want the restarted RM to ask the AM to register again", id)
		}
		// The RM's port was closed under the client: it dials again.
		t.Logf("allocate for %s after restart-rm: %v", id, err)
		wait(ctx, t, "the restarted RM to answer "+id+"'s AM")
	}
	if err := a.register(ctx, t); err != nil {
		t.Fatalf("registering %s's AM again after restart-rm: %v", id, err)
	}
	a.heartbeat(ctx, t, nil)
}

// finish unregisters the AM as SUCCEEDED, asking again until the RM
// says it has.
func (a *unmanagedAM) finish(ctx context.Context, t *testing.T) {
	t.Helper()
	for {
		fin, err := a.am.FinishApplicationMaster(ctx, &hadoopyarn.FinishApplicationMasterRequestProto{
			FinalApplicationStatus: hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED.Enum(),
		})
		if err != nil {
			t.Fatalf("finishApplicationMaster for %s: %v", yarn.ApplicationID(a.app), err)
		}
		if fin.GetIsUnregistered() {
			return
		}
		wait(ctx, t, yarn.ApplicationID(a.app)+" unregistered")
	}
}

// registerUnmanaged submits an application to queue whose AM is the
// test, and registers that AM with the RM.
func registerUnmanaged(ctx context.Context, t *testing.T, c *testcluster.Cluster, rm *yarn.ApplicationClient, name, queue string) *unmanagedAM {
	t.Helper()
	app, token := submitUnmanagedTo(ctx, t, rm, name, queue)
	a := &unmanagedAM{app: app, am: amrmClient(t, c, token, nil)}
	if err := a.register(ctx, t); err != nil {
		t.Fatalf("registering %s's AM: %v", yarn.ApplicationID(app), err)
	}
	return a
}

// checkAttempt checks that app ended SUCCEEDED in attempt n.
func checkAttempt(t *testing.T, c *testcluster.Cluster, app string, n int32) {
	t.Helper()
	id, err := yarn.ParseApplicationID(app)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := applicationClient(t, c).GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
	if err != nil {
		t.Fatal(err)
	}
	report := r.GetApplicationReport()
	if got := report.GetCurrentApplicationAttemptId().GetAttemptId(); got != n || report.GetFinalApplicationStatus() != hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED {
		t.Errorf("%s: attempt %d ended %v; want attempt %d SUCCEEDED", app, got, report.GetFinalApplicationStatus(), n)
	}
}

// currentAttempt is app's current attempt as the RM reports it, failing
// t once the application has ended.
func currentAttempt(t *testing.T, rm *yarn.ApplicationClient, app string) int32 {
	t.Helper()
	id, err := yarn.ParseApplicationID(app)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := rm.GetApplicationReport(ctx, &hadoopyarn.GetApplicationReportRequestProto{ApplicationId: id})
	if err != nil {
		t.Fatal(err)
	}
	report := r.GetApplicationReport()
	if s := report.GetYarnApplicationState(); s == hadoopyarn.YarnApplicationStateProto_FINISHED ||
		s == hadoopyarn.YarnApplicationStateProto_FAILED || s == hadoopyarn.YarnApplicationStateProto_KILLED {
		t.Fatalf("%s ended %v in attempt %d: %s", app, s, report.GetCurrentApplicationAttemptId().GetAttemptId(), report.GetDiagnostics())
	}
	return report.GetCurrentApplicationAttemptId().GetAttemptId()
}

// hdfsClient reaches the cluster's HDFS through its client configuration.
func hdfsClient(t *testing.T, c *testcluster.Cluster) *hdfs.Client {
	t.Helper()
	conf, err := hdfsconf.Load(c.ConfDir)
	if err != nil {
		t.Fatal(err)
	}
	opts := hdfs.ClientOptionsFromConf(conf)
	opts.User = userName(t)
	client, err := hdfs.NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return client
}
