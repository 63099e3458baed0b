package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"google.golang.org/protobuf/proto"

	"github.com/spindle-yarn/spindle/am"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/jobspec"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor"
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
	profile, err := executorProfile(conf)
	if err != nil {
		return err
	}
	schedCfg, err := schedulerConfig(conf)
	if err != nil {
		return err
	}
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
	if mode == "fine" {
		// A container per task: executors the size of the largest task, and
		// every task taking a whole one, so each runs alone in its container.
		cpus, gpus := 1, 0.0
		for _, st := range job.Stages {
			cpus, gpus = max(cpus, st.CPUs), max(gpus, st.GPUs)
		}
		profile.Cores, profile.GPUs = cpus, int(math.Ceil(gpus))
		for i := range job.Stages {
			job.Stages[i].CPUs = profile.Cores
		}
	}
	appID, _ := os.LookupEnv("SPINDLE_APP_ID")
	// The event loop publishes the job's progress; the allocate heartbeat,
	// in its own goroutine, reports it to the RM.
	var progress atomic.Uint32 // math.Float32bits of the fraction done
	dcfg := am.Config{AppID: appID, Scheduler: schedCfg, Profile: profile, Secret: secret, Listen: ":0", OneTaskPerExecutor: mode == "fine",
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
	var containers *am.Containers // set below; the driver moves its target
	if dynamic {
		acfg, err := allocationConfig(conf)
		if err != nil {
			return err
		}
		if dcfg.Allocation, err = dynalloc.New(acfg); err != nil {
			return err
		}
		dcfg.Target = func(n int) { containers.SetTarget(n) }
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
	regReq := &hadoopyarn.RegisterApplicationMasterRequestProto{Host: proto.String(host), RpcPort: proto.Int32(int32(portNum)), TrackingUrl: proto.String("")}
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
	for k, v := range map[string]string{
		"SPINDLE_DRIVER_ADDRESS": net.JoinHostPort(host, port), "SPINDLE_APP_ID": appID,
		"SPINDLE_EXECUTOR_CORES": fmt.Sprint(profile.Cores), "SPINDLE_SECRET_FROM": "credentials",
	} {
		launch.Environment = append(launch.Environment, &hadoopyarn.StringStringMapProto{Key: proto.String(k), Value: proto.String(v)})
	}
	launch.Command = []string{"SPINDLE_EXECUTOR_LOG_DIR=<LOG_DIR> ./spindle executor 1><LOG_DIR>/executor.stdout 2><LOG_DIR>/executor.stderr"}
	label := s.str("spindle.yarn.executor.nodeLabelExpression")
	instances := s.int("spindle.executor.instances")
	if s.err != nil {
		return s.err
	}
	if dcfg.Allocation != nil {
		instances = dcfg.Allocation.Target(profile.ID)
	}
	containers = &am.Containers{RM: rm, NMOptions: opts, Profile: profile, Executors: instances,
		MaxGPUsPerNode: int(yarn.ResourceValue(reg.GetMaximumCapability(), yarn.GPU)), Launch: launch, NodeLabel: label,
		OnLaunchFailed: func(id string, err error) { fmt.Fprintf(os.Stderr, "container %s: launch failed: %v\n", id, err) },
		Register: func(ctx context.Context) error {
			_, err := rm.RegisterApplicationMaster(ctx, regReq)
			return err
		},
		Progress: func() float32 { return math.Float32frombits(progress.Load()) }}
	allocCtx, stopAlloc := context.WithCancel(ctx)
	allocDone := make(chan error, 1)
	go func() { allocDone <- containers.Run(allocCtx) }()

	sum, runErr := driver.Run(ctx, job)
	stopAlloc()
	<-allocDone
	printSummary(c.App.Writer, sum, "<LOG_DIR> of each container")
	printTimings(c.App.Writer, sum, instances)

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
