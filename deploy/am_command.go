package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/launcher/nodemanager"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/scheduler/dynalloc"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Files the submitter ships to the ApplicationMaster's working directory.
const (
	amJobFile       = "job.yaml"
	amSettingsFile  = "spindle.conf"
	amExecutorFiles = "executor-resources.pb" // the executors' local resources
)

// printTimings reports how long the application took to get going, from
// the submitter's clock (SPINDLE_SUBMIT_UNIX_MS), and the AM's peak
// resident memory: the figures of docs/yarn.md.
func printTimings(w io.Writer, sum am.Summary, executors int) {
	ms, _ := strconv.ParseInt(os.Getenv("SPINDLE_SUBMIT_UNIX_MS"), 10, 64)
	submitted := time.UnixMilli(ms)
	if ms > 0 && !sum.FirstLaunch.IsZero() {
		fmt.Fprintf(w, "  submit to first task launched: %s\n", sum.FirstLaunch.Sub(submitted).Round(time.Millisecond))
	}
	if ms > 0 && len(sum.Registered) >= executors && executors > 0 {
		fmt.Fprintf(w, "  submit to all %d executors registered: %s\n", executors, sum.Registered[executors-1].Sub(submitted).Round(time.Millisecond))
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		fmt.Fprintf(w, "  ApplicationMaster peak resident memory: %.1f MiB\n", float64(ru.Maxrss)/1024) // Linux reports KiB
	}
}

func amCommand() *cli.Command {
	return &cli.Command{Name: "am", Usage: "internal: run the ApplicationMaster in its YARN container", Hidden: true, Action: runAM}
}

func runAM(c *cli.Context) error {
	conf, err := config.LoadFiles([]string{amSettingsFile}, nil)
	if err != nil {
		return err
	}
	s := &settings{c: conf}
	defaults, err := jobDefaults(conf)
	if err != nil {
		return err
	}
	job, err := jobspec.Load(amJobFile, defaults)
	if err != nil {
		return err
	}
	if err := overrideJob(job, conf); err != nil {
		return err
	}
	schedCfg, err := schedulerConfig(conf)
	if err != nil {
		return err
	}
	noticeUndefinedPool(os.Stderr, conf, job, schedCfg.Pools)
	hconf, err := hadoopconf.FromEnvironment(os.LookupEnv)
	if err != nil {
		return err
	}
	creds, err := credentials.FromEnvironment()
	if err != nil {
		return err
	}
	secret, ok := creds.FindSecret(executor.SecretAlias)
	if !ok {
		return errors.New("the container's credentials hold no application secret")
	}
	amrmTokens := creds.TokensOfKind(yarn.AMRMTokenKind)
	if len(amrmTokens) == 0 {
		return errors.New("the container's credentials hold no AMRMToken")
	}
	user := yarnapp.User(os.LookupEnv)
	opts, err := yarn.ClientOptions(hconf, user)
	if err != nil {
		return err
	}
	rmOpts := opts
	rmOpts.Auth.Tokens = []*hadoopcommon.TokenProto{amrmTokens[0].Proto()}
	schedAddrs, err := yarn.Addresses(hconf, hadoopconf.RMSchedulerAddress)
	if err != nil {
		return err
	}
	rm, err := yarn.NewAMRMClient(schedAddrs, rmOpts)
	if err != nil {
		return err
	}
	defer rm.Close()

	mode := s.enum("spindle.yarn.mode")
	if s.err != nil {
		return s.err
	}
	profiles, stageProfiles, err := executorProfiles(conf, job)
	if err != nil {
		return err
	}
	appID, _ := os.LookupEnv("SPINDLE_APP_ID")
	// The event loop publishes the job's progress; the allocate heartbeat,
	// in its own goroutine, reports it to the RM.
	var progress atomic.Uint32    // math.Float32bits of the fraction done
	var containers *am.Containers // set below; the driver asks it and moves its targets
	bind, err := amBindHost(conf)
	if err != nil {
		return err
	}
	dcfg := am.Config{AppID: appID, Scheduler: schedCfg, Profiles: profiles, StageProfiles: stageProfiles, Secret: secret, Listen: net.JoinHostPort(bind, "0"),
		OneTaskPerExecutor: mode == "fine",
		// A container's exit status reaches the AM a heartbeat or two
		// after its executor's connection ends.
		LossReasonWait:  10 * time.Second,
		ExecutorProfile: func(id scheduler.ExecutorID) (scheduler.ProfileID, bool) { return containers.ProfileOf(id) },
		Progress: func(p am.Progress) {
			if p.Tasks > 0 {
				progress.Store(math.Float32bits(float32(p.Succeeded) / float32(p.Tasks)))
			}
		}}
	dynamic, err := conf.Bool("spindle.dynamicAllocation.enabled")
	if err != nil {
		return err
	}
	// Fine-grained mode asks for containers as tasks want them.
	dynamic = dynamic || mode == "fine"
	if dynamic {
		acfg, err := allocationConfig(conf)
		if err != nil {
			return err
		}
		if dcfg.Allocation, err = dynalloc.New(acfg); err != nil {
			return err
		}
		dcfg.Target = func(p scheduler.ProfileID, n int) { containers.SetTarget(p, n) }
	}
	driver, err := am.New(dcfg)
	if err != nil {
		return err
	}
	_, port, _ := net.SplitHostPort(driver.Addr())
	host, _ := os.LookupEnv("NM_HOST")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	portNum, err := strconv.Atoi(port)
	if err != nil {
		return fmt.Errorf("the driver listens on %s: %w", driver.Addr(), err)
	}
	// The tracking URL: the job's status page, which the RM's web proxy
	// shows as the application's.
	web, err := net.Listen("tcp", net.JoinHostPort(bind, "0"))
	if err != nil {
		return fmt.Errorf("listening for the tracking page: %w", err)
	}
	tracking := &http.Server{Handler: am.TrackingHandler(driver), ReadHeaderTimeout: 10 * time.Second}
	go tracking.Serve(web)
	defer tracking.Close()
	trackingURL := "http://" + net.JoinHostPort(host, strconv.Itoa(web.Addr().(*net.TCPAddr).Port)) + "/"
	regReq := &hadoopyarn.RegisterApplicationMasterRequestProto{Host: proto.String(host), RpcPort: proto.Int32(int32(portNum)), TrackingUrl: proto.String(trackingURL)}
	reg, err := rm.RegisterApplicationMaster(ctx, regReq)
	if err != nil {
		return fmt.Errorf("registering with the ResourceManager: %w", err)
	}

	launch := &hadoopyarn.ContainerLaunchContextProto{}
	raw, err := os.ReadFile(amExecutorFiles)
	if err == nil {
		err = proto.Unmarshal(raw, launch)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", amExecutorFiles, err)
	}
	executorCreds := &credentials.Credentials{}
	executorCreds.AddSecret(credentials.Secret{Alias: executor.SecretAlias, Value: secret})
	if launch.Tokens, err = credentialBytes(executorCreds); err != nil {
		return err
	}
	env, err := executorEnvironment(conf, net.JoinHostPort(host, port), appID)
	if err != nil {
		return err
	}
	launch.Environment = append(launch.Environment, env...)
	// Task logs go to the container's log directory, where log
	// aggregation and `yarn logs` find them.
	launch.Command = []string{executor.EnvExecutorLogDir + "=<LOG_DIR> ./spindle executor 1><LOG_DIR>/executor.stdout 2><LOG_DIR>/executor.stderr"}
	containers = &am.Containers{RM: rm, Launcher: nodemanager.New(opts, launch, 8), Profiles: profiles,
		MaxGPUsPerNode: int(yarn.ResourceValue(reg.GetMaximumCapability(), yarn.GPU)),
		Log:            func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) },
		Ended:          driver.ExecutorEnded,
		Register: func(ctx context.Context) error {
			_, err := rm.RegisterApplicationMaster(ctx, regReq)
			return err
		},
		Progress: func() float32 { return math.Float32frombits(progress.Load()) }}
	if err := containerPolicy(containers, conf, hconf, dcfg.Allocation); err != nil {
		return err
	}
	containers.Init()
	// Executors failing so often that the application cannot go on end
	// the job with that reason.
	jobCtx, endJob := context.WithCancelCause(ctx)
	defer endJob(nil)
	allocCtx, stopAlloc := context.WithCancel(ctx)
	allocDone := make(chan error, 1)
	go func() {
		err := containers.Run(allocCtx)
		if err != nil {
			endJob(err)
		}
		allocDone <- err
	}()

	sum, runErr := driver.Run(jobCtx, job)
	stopAlloc()
	<-allocDone
	printSummary(c.App.Writer, sum, "<LOG_DIR> of each container")
	printTimings(c.App.Writer, sum, containers.Initial[profiles[0].ID])

	final, diag := hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED, "job "+sum.Job+" succeeded"
	if runErr != nil || !sum.Succeeded {
		final, diag = hadoopyarn.FinalApplicationStatusProto_APP_FAILED, sum.Reason
		if runErr != nil {
			diag = runErr.Error()
		}
	}
	fctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Clean up before unregistering, so whoever follows the application
	// finds nothing left once it has ended. Only on success: a failed
	// attempt may be retried, and the next one needs the files.
	if dir, ok := os.LookupEnv("SPINDLE_STAGING_DIR"); ok && final == hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED {
		if st, err := staging.New(hconf, user); err == nil {
			st.Remove(fctx, dir)
			st.Close()
		}
	}
	for {
		resp, err := rm.FinishApplicationMaster(fctx, &hadoopyarn.FinishApplicationMasterRequestProto{FinalApplicationStatus: final.Enum(), Diagnostics: proto.String(diag)})
		if err != nil {
			return fmt.Errorf("unregistering: %w", err)
		}
		if resp.GetIsUnregistered() {
			break
		}
		if err := pause(fctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
	if final != hadoopyarn.FinalApplicationStatusProto_APP_SUCCEEDED {
		return errors.New(diag)
	}
	return nil
}
