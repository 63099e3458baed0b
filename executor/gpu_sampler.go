package executor

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/contain"
	"github.com/spindle-yarn/spindle/executor/gpuuse"
)

// Sampling what the executor's GPUs are doing, for its driver to show.
//
// Every Config.GPUSampleInterval the executor asks nvidia-smi's query
// interface (gpuuse.Query) about its own GPUs, and its serving loop sends
// what it says to the driver in a heartbeat of its own. nvidia-smi is run
// rather than NVML linked: the binary stays static and runs the same on a
// machine without NVIDIA's driver. There, or wherever nvidia-smi is
// missing, fails or hangs, the executor has no figures and says so once
// in its log: never an error, and it works as before.

// nvidiaSMI is the command asked, looked up in the executor's PATH.
const nvidiaSMI = "nvidia-smi"

// defaultGPUSampleTimeout bounds one nvidia-smi run: it answers in well
// under a second, but a wedged driver can make it hang.
const defaultGPUSampleTimeout = 5 * time.Second

// gpuSampler asks nvidia-smi about the executor's GPUs.
type gpuSampler struct {
	argv    []string        // nvidia-smi, gpuuse.Query and --id=<its GPUs>
	env     []string        // nvidia-smi's environment
	mine    map[string]bool // the executor's GPU addresses
	timeout time.Duration
	log     logrus.FieldLogger
	// failing is set once a sample has failed and said so in the log,
	// until one succeeds: the log says it once, not every interval.
	failing bool
}

// newGPUSampler returns the sampler of cfg's executor with gpus, or nil
// when there is nothing to sample: sampling is off, the executor has no
// GPUs, or nvidia-smi is not on its PATH (which it logs).
func newGPUSampler(cfg Config, gpus []string) *gpuSampler {
	if cfg.GPUSampleInterval <= 0 || len(gpus) == 0 {
		return nil
	}
	env := executorEnviron(cfg.GPUSources)
	path, err := contain.LookPath(nvidiaSMI, env)
	if err != nil {
		cfg.Log.WithError(err).Info("no GPU figures: nvidia-smi is not on the executor's PATH")
		return nil
	}
	timeout := cfg.gpuSampleTimeout
	if timeout <= 0 {
		timeout = defaultGPUSampleTimeout
	}
	s := &gpuSampler{argv: append(append([]string{path}, gpuuse.Query...), "--id="+strings.Join(gpus, ",")), env: InheritedEnvironment(env),
		mine: map[string]bool{}, timeout: timeout, log: cfg.Log}
	for _, g := range gpus {
		s.mine[g] = true
	}
	return s
}

// executorEnviron is the executor's environment as its GPU sources see it.
func executorEnviron(src Sources) []string {
	if src.Env != nil {
		return src.Env
	}
	return os.Environ()
}

// run samples at once, then every interval, until stop is closed, and
// puts each sample in out (capacity 1), in place of one not yet taken:
// the driver wants the latest, and while there is none the executor
// keeps only that.
func (s *gpuSampler) run(interval time.Duration, out chan []gpuuse.Sample, stop <-chan struct{}) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if samples := s.sampleOnce(stop); samples != nil {
			select {
			case <-out:
			default:
			}
			out <- samples
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// sampleOnce asks nvidia-smi and returns the samples of the executor's
// GPUs, or nil, having logged why when it is news. Closing stop stops
// nvidia-smi.
func (s *gpuSampler) sampleOnce(stop <-chan struct{}) []gpuuse.Sample {
	samples, err := s.sample(stop)
	switch {
	case err != nil && !s.failing:
		s.failing = true
		s.log.WithError(err).Info("no GPU figures until nvidia-smi answers")
	case err != nil:
		s.log.WithError(err).Debug("no GPU figures")
	case s.failing:
		s.failing = false
		s.log.Info("GPU figures again: nvidia-smi answers")
	}
	return samples
}

// sample runs nvidia-smi, contained as a discovery script is (script.go),
// and keeps the lines about the executor's GPUs: those whose index or
// UUID is one of its addresses.
func (s *gpuSampler) sample(stop <-chan struct{}) ([]gpuuse.Sample, error) {
	var stdout, stderr boundedBuffer
	stdout.max, stderr.max = gpuuse.MaxOutput, maxQuotedStderr
	p, err := contain.Start(contain.Spec{Argv: s.argv, Env: s.env, Stdout: &stdout, Stderr: &stderr, Grace: scriptGrace, Name: nvidiaSMI})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", nvidiaSMI, err)
	}
	// The executor stopping stops it too: a hung nvidia-smi must not
	// hold the executor's end for its timeout.
	timer, ended := time.AfterFunc(s.timeout, p.Stop), make(chan struct{})
	go func() {
		select {
		case <-stop:
			p.Stop()
		case <-ended:
		}
	}()
	res := p.Wait()
	close(ended)
	switch {
	case !timer.Stop():
		return nil, fmt.Errorf("%s did not answer within %v%s", nvidiaSMI, s.timeout, stderr.quote("stderr"))
	case res.Err != nil:
		return nil, fmt.Errorf("%s: %w", nvidiaSMI, res.Err)
	case res.ExitCode != 0:
		return nil, fmt.Errorf("%s failed: exit status %d%s%s", nvidiaSMI, res.ExitCode, stdout.quote("stdout"), stderr.quote("stderr"))
	case stdout.truncated:
		return nil, fmt.Errorf("%s printed more than %d bytes", nvidiaSMI, gpuuse.MaxOutput)
	}
	all, err := gpuuse.Parse(stdout.buf.Bytes())
	if err != nil {
		return nil, err
	}
	var samples []gpuuse.Sample
	for _, g := range all {
		if s.mine[strconv.Itoa(g.Index)] || s.mine[g.UUID] {
			samples = append(samples, g)
		}
	}
	if len(samples) == 0 {
		return nil, errors.New(nvidiaSMI + " names none of the executor's GPUs")
	}
	return samples, nil
}
