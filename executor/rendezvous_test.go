package executor

import (
	"net"
	"strconv"
	"testing"
)

// The port picked is free: a listener can take it right after.
func TestPickPortIsFree(t *testing.T) {
	got := pickPort(7)
	if got.GetGang() != 7 || got.GetError() != "" || got.GetPort() <= 0 {
		t.Fatalf("picked %v", got)
	}
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(int(got.GetPort())))
	if err != nil {
		t.Fatalf("port %d not free: %v", got.GetPort(), err)
	}
	ln.Close()
}
