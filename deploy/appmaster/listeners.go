package appmaster

import (
	"fmt"
	"net"
	"strconv"

	"github.com/spindle-yarn/spindle/executor/wire"
)

// amListeners are where the AM listens: for executors, a session's
// clients, and the tracking page. rpcPort is the port the registration
// gives clients (YARN hands it to them in the application report): a
// session's client port, or for one job the executors'.
type amListeners struct {
	executors, clients *wire.Listener
	web                net.Listener
	rpcPort            int
}

func listenAll(a appMaster) (ls amListeners, err error) {
	defer func() {
		if err != nil {
			ls.close()
		}
	}()
	if ls.executors, err = wire.Listen("tcp", net.JoinHostPort(a.Bind, "0"), a.Secret); err != nil {
		return ls, fmt.Errorf("listening for executors: %w", err)
	}
	ls.rpcPort = ls.executorPort()
	if a.SessionSecret != nil {
		if ls.clients, err = wire.Listen("tcp", net.JoinHostPort(a.Bind, "0"), a.SessionSecret); err != nil {
			return ls, fmt.Errorf("listening for the session's clients: %w", err)
		}
		ls.rpcPort = ls.clients.Addr().(*net.TCPAddr).Port
	}
	if ls.web, err = net.Listen("tcp", net.JoinHostPort(a.Bind, "0")); err != nil {
		return ls, fmt.Errorf("listening for the tracking page: %w", err)
	}
	return ls, nil
}

func (ls amListeners) executorPort() int { return ls.executors.Addr().(*net.TCPAddr).Port }

// trackingURL is the job's status page, which the RM's web proxy shows
// as the application's.
func (ls amListeners) trackingURL(host string) string {
	return "http://" + net.JoinHostPort(host, strconv.Itoa(ls.web.Addr().(*net.TCPAddr).Port)) + "/"
}

// close closes what is open; the driver's Run closes the executors' and
// clients' listeners too: this covers the ways out before it.
func (ls amListeners) close() {
	if ls.executors != nil {
		ls.executors.Close()
	}
	if ls.clients != nil {
		ls.clients.Close()
	}
	if ls.web != nil {
		ls.web.Close()
	}
}
