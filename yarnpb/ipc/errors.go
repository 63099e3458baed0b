package ipc

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spindle-yarn/spindle/yarnpb/hadoopcommon"
)

// Sentinel errors for the remote exceptions Spindle acts on. Test with
// errors.Is; a *RemoteError matches the sentinel of its Java class (a
// NameNode's missing or existing path matches fs.ErrNotExist or
// fs.ErrExist).
var (
	ErrApplicationNotFound             = errors.New("application not found")
	ErrApplicationAttemptNotFound      = errors.New("application attempt not found")
	ErrInvalidResourceRequest          = errors.New("invalid resource request")
	ErrApplicationMasterNotRegistered  = errors.New("application master not registered")
	ErrInvalidApplicationMasterRequest = errors.New("invalid application master request")
	ErrInvalidToken                    = errors.New("invalid token")
	ErrStandby                         = errors.New("server is in standby")
	ErrAccessControl                   = errors.New("access denied")
	ErrNoSuchMethod                    = errors.New("no such method")
)

// remoteClasses maps Java exception classes to their sentinels.
var remoteClasses = map[string]error{
	"org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException":             ErrApplicationNotFound,
	"org.apache.hadoop.yarn.exceptions.ApplicationAttemptNotFoundException":      ErrApplicationAttemptNotFound,
	"org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException":          ErrInvalidResourceRequest,
	"org.apache.hadoop.yarn.exceptions.ApplicationMasterNotRegisteredException":  ErrApplicationMasterNotRegistered,
	"org.apache.hadoop.yarn.exceptions.InvalidApplicationMasterRequestException": ErrInvalidApplicationMasterRequest,
	"org.apache.hadoop.security.token.SecretManager$InvalidToken":                ErrInvalidToken,
	"org.apache.hadoop.yarn.exceptions.InvalidAuxServiceException":               nil,
	"org.apache.hadoop.ipc.StandbyException":                                     ErrStandby,
	"org.apache.hadoop.security.AccessControlException":                          ErrAccessControl,
	"org.apache.hadoop.security.authorize.AuthorizationException":                ErrAccessControl,
	"org.apache.hadoop.ipc.RpcNoSuchMethodException":                             ErrNoSuchMethod,
	"java.io.FileNotFoundException":                                              fs.ErrNotExist,
	"org.apache.hadoop.fs.FileAlreadyExistsException":                            fs.ErrExist,
}

// RemoteError is an exception the server returned for a call.
type RemoteError struct {
	Class   string // the Java exception class, e.g. org.apache.hadoop.ipc.StandbyException
	Message string // its message (often with a stack trace)
	Code    hadoopcommon.RpcResponseHeaderProto_RpcErrorCodeProto
	// Fatal means the server closed the connection after this error.
	Fatal bool
}

// Error is the exception's class and message. It leaves out the Java stack trace Hadoop's servers append to many
// messages (YarnException's, each frame a "\tat ..." line): what a user
// reads is the first lines; Message keeps it all.
func (e *RemoteError) Error() string {
	msg := e.Message
	if i := strings.Index(msg, "\n\tat "); i >= 0 {
		msg = strings.TrimRight(msg[:i], " \r\n")
	}
	return fmt.Sprintf("%s: %s", e.Class, msg)
}

// Is lets errors.Is match a RemoteError against the sentinel of its class.
func (e *RemoteError) Is(target error) bool {
	s, ok := remoteClasses[e.Class]
	return ok && s == target
}
