package local

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spindle-yarn/spindle/executor"
	"github.com/spindle-yarn/spindle/executor/tasklog"
)

// Executor describes one executor to start.
type Executor struct {
	ID    string
	Cores int
	GPUs  []string // disjoint addresses given to it
	// Accels are its accelerators besides GPUs, with disjoint addresses.
	Accels []executor.Accelerator
}

// Config is what every executor is started with.
type Config struct {
	Binary     string // the spindle binary (os.Executable() in production)
	DriverAddr string
	AppID      string
	Secret     []byte // written to each executor's stdin, then closed
	LogDir     string // each executor logs under LogDir/<id>
	// Environ is what executors, and so their tasks, inherit: the
	// submitter's environment (nil: os.Environ()). Its SPINDLE_* variables
	// are dropped, so that only the launcher's own reach an executor.
	Environ []string
	// ExecutorEnv is spindle.executorEnv: laid over Environ.
	ExecutorEnv map[string]string
	// TaskLogMaxBytes is spindle.task.log.maxBytes (0: no cap).
	TaskLogMaxBytes int64
	// LogLevel is the executors' log level in their executor.log
	// (executor.Launch's LogLevel; empty: info).
	LogLevel string
	// LogMaxBytes and LogMaxFiles roll each executor.log over
	// (spindle.log.maxBytes, spindle.log.maxFiles; executor.Launch's).
	LogMaxBytes int64
	LogMaxFiles int
	// TaskLogs is how much of ended jobs' task files each executor keeps
	// in a session (spindle.session.taskLogs.*; executor.Launch's).
	TaskLogs tasklog.Policy
	// GPUSampleInterval is spindle.executor.gpuSampleInterval
	// (executor.Launch's; 0: never).
	GPUSampleInterval time.Duration
	// Files are copied into every executor's working directory (--files).
	Files       []string
	StopTimeout time.Duration // from SIGTERM to SIGKILL at Stop (default 5s)
}

// executorLog is each executor's log, in its directory.
const executorLog = "executor.log"

// Process is a started executor.
type Process struct {
	Executor
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Launcher starts and stops local executors.
type Launcher struct {
	cfg   Config
	mu    sync.Mutex
	procs []*Process
}

// New returns a launcher.
func New(cfg Config) (*Launcher, error) {
	if cfg.Binary == "" || cfg.DriverAddr == "" || len(cfg.Secret) == 0 {
		return nil, errors.New("local launcher: binary, driver address and secret are required")
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = 5 * time.Second
	}
	return &Launcher{cfg: cfg}, nil
}

// Start starts one executor process.
func (l *Launcher) Start(e Executor) (*Process, error) {
	dir := filepath.Join(l.cfg.LogDir, e.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range l.cfg.Files {
		if err := copyFile(f, filepath.Join(dir, filepath.Base(f))); err != nil {
			return nil, fmt.Errorf("executor %s: shipping %s: %w", e.ID, f, err)
		}
	}
	// Its standard output and error until it opens the log itself: what
	// it says before (a launch it cannot read) lands there too.
	logFile, err := os.OpenFile(filepath.Join(dir, executorLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(l.cfg.Binary, "executor")
	cmd.Env = l.environment(e, dir)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own process group, so Stop reaches everything it started; and
	// killed with the driver, so a driver that dies leaves no executor.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	err = cmd.Start()
	// The executor has its own copy, and rolls executor.log over itself:
	// this one would hold a rolled-away file's space for its whole life.
	logFile.Close()
	if err != nil {
		return nil, fmt.Errorf("starting executor %s: %w", e.ID, err)
	}
	_, werr := stdin.Write(l.cfg.Secret)
	stdin.Close()
	p := &Process{Executor: e, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	if werr != nil && !errors.Is(werr, io.ErrClosedPipe) {
		p.kill(syscall.SIGKILL)
		return nil, fmt.Errorf("executor %s: handing over the secret: %w", e.ID, werr)
	}
	l.mu.Lock()
	l.procs = append(l.procs, p)
	l.mu.Unlock()
	return p, nil
}

// environment is executor e's: the inherited environment, then
// spindle.executorEnv, then the launch variables (which a task never sees).
func (l *Launcher) environment(e Executor, dir string) []string {
	environ := l.cfg.Environ
	if environ == nil {
		environ = os.Environ()
	}
	var env []string
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "SPINDLE_") {
			env = append(env, kv)
		}
	}
	names := make([]string, 0, len(l.cfg.ExecutorEnv))
	for k := range l.cfg.ExecutorEnv {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		env = append(env, k+"="+l.cfg.ExecutorEnv[k])
	}
	launch := executor.Launch{DriverAddress: l.cfg.DriverAddr, AppID: l.cfg.AppID, ExecutorID: e.ID, Cores: e.Cores,
		GPUs: len(e.GPUs), GPUAddresses: e.GPUs, LogDir: dir, TaskLogMaxBytes: l.cfg.TaskLogMaxBytes, SecretFrom: "stdin",
		LogLevel: l.cfg.LogLevel, LogFile: filepath.Join(dir, executorLog), LogMaxBytes: l.cfg.LogMaxBytes, LogMaxFiles: l.cfg.LogMaxFiles,
		TaskLogs: l.cfg.TaskLogs, GPUSampleInterval: l.cfg.GPUSampleInterval, Accels: e.Accels}
	return append(env, launch.Environ()...)
}

// Pid is the executor's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err is how the process exited, once Done.
func (p *Process) Err() error { return p.err }

func (p *Process) kill(sig syscall.Signal) {
	// The negative pid signals the whole group: the executor and any task
	// it still had running.
	syscall.Kill(-p.cmd.Process.Pid, sig)
}

// Stop ends every executor: SIGTERM to each process group, SIGKILL to those
// still there after StopTimeout. It returns once all have exited.
func (l *Launcher) Stop() {
	l.mu.Lock()
	procs := append([]*Process(nil), l.procs...)
	l.mu.Unlock()
	for _, p := range procs {
		p.kill(syscall.SIGTERM)
	}
	deadline := time.After(l.cfg.StopTimeout)
	for _, p := range procs {
		select {
		case <-p.done:
		case <-deadline:
			for _, q := range procs {
				q.kill(syscall.SIGKILL)
			}
			<-p.done
		}
	}
}

// copyFile copies src to dst, keeping its permission bits.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
