package ipc

import "testing"

// A remote exception reads as its class and message, without the stack
// trace the server appended to the message.
func TestRemoteErrorLeavesOutTheStackTrace(t *testing.T) {
	const msg = "java.security.AccessControlException: User carol cannot perform operation MODIFY_APP on application_1_0001"
	for in, want := range map[string]string{
		msg + "\n\tat org.apache.hadoop.yarn.ipc.RPCUtil.getRemoteException(RPCUtil.java:40)\n\tat x.y(Z.java:1)\n": msg,
		msg + "\r\n\tat org.apache.hadoop.yarn.ipc.RPCUtil.getRemoteException(RPCUtil.java:40)":                     msg,
		"two lines\nof message":         "two lines\nof message",
		"no stack trace, a tab\tat end": "no stack trace, a tab\tat end",
	} {
		e := &RemoteError{Class: "org.apache.hadoop.yarn.exceptions.YarnException", Message: in}
		if got := e.Error(); got != "org.apache.hadoop.yarn.exceptions.YarnException: "+want {
			t.Errorf("Error() = %q, want the message %q", got, want)
		}
		if e.Message != in {
			t.Error("Message changed")
		}
	}
}
