package executor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// rejoinReplyWait is how long a new driver that dialed in has to answer
// the executor's Register: it dialed because it means to adopt the
// executor, so its answer is ready; one that says nothing in this time is
// hung up on, and the executor waits on for another.
const rejoinReplyWait = 10 * time.Second

// rejoinPoint is where the application's next ApplicationMaster attempt
// reaches an executor that outlived its driver (with
// keep_containers_across_application_attempts, YARN keeps the container
// running): a listener of the executor's own, holding the application's
// secret as the driver's does. The new driver dials it with wire.Dial,
// and the executor registers over that connection as over its first.
type rejoinPoint struct {
	ln      *wire.Listener
	address string          // host:port, as every Register tells the driver
	dialed  chan *wire.Conn // authenticated connections, taken one by one
	quit    chan struct{}
	done    chan struct{}
}

// listenForDrivers listens on cfg.RejoinHost (or Host), at a port of the system's
// choosing.
func listenForDrivers(cfg Config) (*rejoinPoint, error) {
	host := cmp.Or(cfg.RejoinHost, cfg.Host)
	ln, err := wire.Listen("tcp", net.JoinHostPort(host, "0"), cfg.Secret)
	if err != nil {
		return nil, err
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	p := &rejoinPoint{ln: ln, address: net.JoinHostPort(host, port), dialed: make(chan *wire.Conn), quit: make(chan struct{}), done: make(chan struct{})}
	go p.accept(cfg.Log)
	return p, nil
}

// accept hands the run loop each connection that proves the secret. One
// that does not is closed by the Listener, and logged (its address, never
// the secret).
func (p *rejoinPoint) accept(log logrus.FieldLogger) {
	defer close(p.done)
	for {
		c, err := p.ln.Accept(context.Background())
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			log.WithError(err).Warn("a connection to the rejoin listener failed: ignored")
			continue
		}
		select {
		case p.dialed <- c:
		case <-p.quit:
			c.Close()
			return
		}
	}
}

// close stops listening; it returns once nothing of p runs.
func (p *rejoinPoint) close() {
	close(p.quit)
	p.ln.Close()
	<-p.done
}

func (e *executor) rejoinAddress() string {
	if e.rejoin == nil {
		return ""
	}
	return e.rejoin.address
}

// registration is the executor's Register; rejoining, with the attempts it
// still runs, for a driver other than its first.
func (e *executor) registration(rejoining bool) *wire.Envelope {
	reg := &wire.Register{ExecutorId: e.cfg.ID, Host: e.cfg.Host, Cores: int32(e.cfg.Cores), GpuAddresses: e.gpus, Pid: int32(os.Getpid()),
		RejoinAddress: e.rejoinAddress(), Rejoining: rejoining, LogUrl: e.cfg.LogURL, Resources: e.accels}
	if rejoining {
		reg.Running = e.runningAttempts()
	}
	return &wire.Envelope{Message: &wire.Envelope_Register{Register: reg}}
}

// runningAttempts are the attempts starting or running, in the order of
// their names. One that ends after this is reported by its status, sent
// after the Register.
func (e *executor) runningAttempts() []*wire.RunningAttempt {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]*wire.RunningAttempt, 0, len(e.live))
	for _, a := range e.live {
		out = append(out, a.adopt)
	}
	slices.SortFunc(out, func(a, b *wire.RunningAttempt) int {
		return cmp.Or(cmp.Compare(a.GetStageId(), b.GetStageId()), cmp.Compare(a.GetTaskIndex(), b.GetTaskIndex()), cmp.Compare(a.GetAttempt(), b.GetAttempt()))
	})
	return out
}

// awaitDriver keeps the tasks running after the driver's connection ended
// (lost says how) until a new driver dials in and accepts the executor,
// whose connection it returns, or cfg.RejoinTimeout has passed, or ctx
// ends (an error: the caller stops every task). dialed, if not nil, is a
// new driver's connection already there.
func (e *executor) awaitDriver(ctx context.Context, lost error, dialed *wire.Conn) (*wire.Conn, error) {
	timeout := e.cfg.RejoinTimeout
	e.cfg.Log.WithError(lost).WithFields(logrus.Fields{"tasks": len(e.runningAttempts()), "timeout": timeout}).
		Warn("keeping the tasks running for a new ApplicationMaster")
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		c := dialed
		dialed = nil
		if c == nil {
			select {
			case c = <-e.rejoin.dialed:
			case <-wctx.Done():
				if err := ctx.Err(); err != nil {
					e.cfg.Log.WithField("cause", context.Cause(ctx)).Warn("stopping every task")
					return nil, err
				}
				e.cfg.Log.WithField("timeout", timeout).Warn("no new ApplicationMaster came within the rejoin timeout: stopping every task")
				return nil, fmt.Errorf("%w and no new ApplicationMaster came within %v", lost, timeout)
			}
		}
		accepted, err := e.rejoinOver(ctx, c)
		if err != nil {
			return nil, err
		}
		if accepted {
			return c, nil
		}
	}
}

// rejoinOver registers again over c, a connection a new driver dialed:
// true once it accepts; an error once it refuses. Anything else (the
// connection ends, or no answer within rejoinReplyWait) leaves the
// executor waiting for another.
func (e *executor) rejoinOver(ctx context.Context, c *wire.Conn) (bool, error) {
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	log := e.cfg.Log.WithField("driver", c.RemoteAddr().String())
	c.SetReadDeadline(time.Now().Add(e.cfg.replyWait))
	reg := e.registration(true)
	err := c.Send(reg)
	var reply *wire.Envelope
	if err == nil {
		reply, err = c.Recv()
	}
	switch {
	case err != nil:
		log.WithError(err).Warn("a new ApplicationMaster dialed in but did not answer the registration: waiting on")
		c.Close()
		return false, nil
	case reply.GetRejected() != nil:
		c.Close()
		why := reply.GetRejected().GetReason()
		log.WithField("reason", why).Warn("the new ApplicationMaster refused the executor: stopping every task")
		return false, fmt.Errorf("the new ApplicationMaster refused it: %s", why)
	case reply.GetRegistered() == nil:
		log.Warn("a new ApplicationMaster answered the registration with something else: hung up on, waiting on")
		c.Close()
		return false, nil
	}
	c.SetReadDeadline(time.Time{})
	log.WithField("tasks", len(reg.GetRegister().GetRunning())).Info("rejoined a new ApplicationMaster")
	return true, nil
}
