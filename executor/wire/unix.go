package wire

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// maxSunPath is the longest path a Unix socket address holds on Linux
// (sun_path is 108 bytes, with the terminating NUL). Deeper sockets, as in
// a test's temporary state directory, are reached through their
// directory's open descriptor: /proc/self/fd/N/NAME is short and names
// the same place.
const maxSunPath = 107

// listenUnix listens on the Unix socket path, which must not exist, and
// returns the listener and how to close it: the socket file goes with it.
func listenUnix(path string) (net.Listener, func() error, error) {
	short, release, err := shortUnixPath(path)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	ln, err := net.Listen("unix", short)
	if err != nil {
		return nil, nil, err
	}
	// The name it was bound by may not outlive release: the file is
	// removed by its own.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	closeFn := func() error {
		err := ln.Close()
		os.Remove(path)
		return err
	}
	return ln, closeFn, nil
}

// dialUnix connects to the Unix socket path.
func dialUnix(ctx context.Context, d *net.Dialer, path string) (net.Conn, error) {
	short, release, err := shortUnixPath(path)
	if err != nil {
		return nil, err
	}
	defer release()
	return d.DialContext(ctx, "unix", short)
}

// shortUnixPath is a name for path that fits a socket address, valid until
// release is called.
func shortUnixPath(path string) (string, func(), error) {
	if len(path) <= maxSunPath {
		return path, func() {}, nil
	}
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return "", nil, err
	}
	short := fmt.Sprintf("/proc/self/fd/%d/%s", dir.Fd(), filepath.Base(path))
	if len(short) > maxSunPath {
		dir.Close()
		return "", nil, fmt.Errorf("the socket's name %q is too long for a Unix socket address", filepath.Base(path))
	}
	return short, func() { dir.Close() }, nil
}

// checkPeerUID says why nc's peer may not connect unless the kernel names
// uid as its user.
func checkPeerUID(nc net.Conn, uid int) error {
	uc, ok := nc.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("refused: only a process of uid %d may connect, over a Unix socket", uid)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("refused: the peer's credentials: %w", err)
	}
	var cred *syscall.Ucred
	cerr := raw.Control(func(fd uintptr) {
		cred, err = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	})
	switch {
	case cerr != nil:
		return fmt.Errorf("refused: the peer's credentials: %w", cerr)
	case err != nil:
		return fmt.Errorf("refused: the peer's credentials: %w", err)
	case int(cred.Uid) != uid:
		return fmt.Errorf("refused: the peer (pid %d) runs as uid %d; only uid %d may connect", cred.Pid, cred.Uid, uid)
	}
	return nil
}

// resetOnClose makes closing nc reset the connection rather than end it
// in order.
func resetOnClose(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
}
