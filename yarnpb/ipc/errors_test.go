package ipc

import (
	"errors"
	"io/fs"
	"testing"
)

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

// A NameNode's missing and existing paths are the io/fs errors a caller
// tests for; other remote errors are neither.
func TestRemoteErrorOfAPathIsAnIOFSError(t *testing.T) {
	missing := &RemoteError{Class: "java.io.FileNotFoundException", Message: "File does not exist: /x"}
	exists := &RemoteError{Class: "org.apache.hadoop.fs.FileAlreadyExistsException", Message: "/x for client 127.0.0.1 already exists"}
	other := &RemoteError{Class: "java.io.IOException", Message: "no"}
	if !errors.Is(missing, fs.ErrNotExist) || errors.Is(missing, fs.ErrExist) {
		t.Error("FileNotFoundException is not fs.ErrNotExist alone")
	}
	if !errors.Is(exists, fs.ErrExist) || errors.Is(exists, fs.ErrNotExist) {
		t.Error("FileAlreadyExistsException is not fs.ErrExist alone")
	}
	if errors.Is(other, fs.ErrNotExist) || errors.Is(other, fs.ErrExist) {
		t.Error("an IOException is an io/fs error")
	}
}
