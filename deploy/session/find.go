package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/spindle-yarn/spindle/deploy/yarnapp"
	"github.com/spindle-yarn/spindle/executor/wire"
	"github.com/spindle-yarn/spindle/internal/procstat"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// Find finds session id from the user's record of it: a local
// session's socket is in the record, a YARN session's address in its
// application report (the AM's host and RPC port), which the RM gives a
// user logged in as login says (asked only of a YARN session).
func Find(ctx context.Context, id string, login func() (kerberos.Login, error)) (Client, Record, error) {
	r, secret, err := Load(id)
	if err != nil {
		return Client{}, r, err
	}
	if !r.Yarn() {
		if r.PID > 0 && Exited(r.PID) {
			Remove(id)
			return Client{}, r, fmt.Errorf("session %s is gone: its driver (pid %d) is not running; its record is removed", id, r.PID)
		}
		return Client{Network: "unix", Addr: r.Socket, Secret: secret}, r, nil
	}
	l, err := login()
	if err != nil {
		return Client{}, r, err
	}
	rm, err := ConnectRM(id, l)
	if err != nil {
		return Client{}, r, err
	}
	defer rm.Close()
	report, err := rm.Report(ctx)
	if err != nil {
		return Client{}, r, err
	}
	if s := report.GetYarnApplicationState(); s != hadoopyarn.YarnApplicationStateProto_RUNNING {
		why := ""
		if d := report.GetDiagnostics(); d != "" && d != yarnapp.Unavailable {
			why = ": " + d
		}
		err := fmt.Errorf("session %s is not running: its application is %s (%s)%s", id, yarnapp.State(report), yarnapp.FinalStatus(report), why)
		if yarnapp.Ended(report) {
			return Client{}, r, fmt.Errorf("%w: %w", ErrEnded, err)
		}
		return Client{}, r, fmt.Errorf("%w: %w", ErrBetweenAttempts, err)
	}
	// The RM shows a running application's tracking URL to every user
	// who may view it; to others, a summary with Unavailable in its place
	// and no AM address or client token (RMAppImpl's report without
	// access).
	if report.GetTrackingUrl() == yarnapp.Unavailable {
		return Client{}, r, fmt.Errorf("session %s: the ResourceManager shows %s only its summary: the application's ACLs do not let this user view it "+
			"(its owner lists who may in spindle.ui.view.acls, with spindle.acls.enable)", id, rm.conn.User)
	}
	if report.GetRpcPort() <= 0 {
		return Client{}, r, fmt.Errorf("%w: session %s: its application master has not said where it takes clients yet", ErrBetweenAttempts, id)
	}
	client := Client{Addr: net.JoinHostPort(report.GetHost(), strconv.Itoa(int(report.GetRpcPort()))), Secret: secret}
	// On a secure cluster the RM hands a client-to-AM token to those the
	// application's ACLs let view it; the session wants it.
	if t := report.GetClientToAmToken(); t != nil {
		client.Token = &wire.ClientToken{Identifier: t.GetIdentifier(), Password: t.GetPassword()}
	}
	return client, r, nil
}

// ErrEnded wraps Find's error for a YARN session whose application has
// ended: unlike one between two attempts, it will not run again.
var ErrEnded = errors.New("the session has ended")

// ErrBetweenAttempts wraps Find's error for a YARN session whose
// application has not ended but takes no client now: its next AM
// attempt is starting, or after an RM restart its AM has not registered
// again.
var ErrBetweenAttempts = errors.New("the session is between attempts")

// YarnApp reaches a YARN session's application through the RM: one
// connection, for as many reports as its user wants.
type YarnApp struct {
	conn *yarnapp.Connection
	id   *hadoopyarn.ApplicationIdProto
}

// ConnectRM connects to the RM of YARN session id, logged in by login.
func ConnectRM(id string, login kerberos.Login) (*YarnApp, error) {
	appID, err := yarn.ParseApplicationID(id)
	if err != nil {
		return nil, err
	}
	conn, err := yarnapp.Connect(login)
	if err != nil {
		return nil, err
	}
	return &YarnApp{conn, appID}, nil
}

// Report is the session's application report.
func (y *YarnApp) Report(ctx context.Context) (*hadoopyarn.ApplicationReportProto, error) {
	return yarnapp.Report(ctx, y.conn.RM, y.id)
}

func (y *YarnApp) Close() error {
	y.conn.Close()
	return nil
}

// Over says whether a stopped session has ended: a local one's
// driver has exited; a YARN one's application (rm reaches it) has
// finished, with its state and final status, as " (FINISHED, SUCCEEDED)".
func Over(ctx context.Context, r Record, rm *YarnApp) (bool, string, error) {
	if rm == nil {
		return Exited(r.PID), "", nil
	}
	report, err := rm.Report(ctx)
	if err != nil {
		return false, "", err
	}
	switch report.GetYarnApplicationState() {
	case hadoopyarn.YarnApplicationStateProto_FINISHED, hadoopyarn.YarnApplicationStateProto_FAILED, hadoopyarn.YarnApplicationStateProto_KILLED:
		return true, fmt.Sprintf(" (%s, %s)", yarnapp.State(report), yarnapp.FinalStatus(report)), nil
	}
	return false, "", nil
}

// Exited says whether process pid has ended: it is gone, or a zombie
// nobody has reaped yet (a background driver's parent is long gone).
func Exited(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	st, err := procstat.Read(pid)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return st.State == 'Z' || st.State == 'X'
}

// ExitedWithin waits up to d for process pid to end, as a connection it
// held ends a moment before its exit shows.
func ExitedWithin(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		if Exited(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}
