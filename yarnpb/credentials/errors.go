package credentials

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrNoTokenFile is returned by FromEnvironment outside a YARN container,
// where HADOOP_TOKEN_FILE_LOCATION is unset: callers that also run locally
// can tell "no credentials here" from "broken credentials".
var ErrNoTokenFile = errors.New("credentials: $" + EnvTokenFile + " is not set (YARN sets it in the containers it launches)")

// A FormatError reports input that is not a well-formed credentials file.
// Its text names the item and the byte offset. It may quote an alias,
// shortened, but never an identifier, password or secret, so it is safe to
// log.
type FormatError struct {
	Path   string // the file, when read by ReadFile or FromEnvironment
	Offset int    // where the offending item starts, from the start of the file
	Detail string // what is wrong, naming the item and the offset
}

func (e *FormatError) Error() string {
	if e.Path != "" {
		return "credentials: " + e.Path + ": " + e.Detail
	}
	return "credentials: " + e.Detail
}

// maxQuoted bounds how much of an alias an error quotes: aliases come from
// the file and may be megabytes of garbage.
const maxQuoted = 64

// quote renders an alias (or kind) for an error message, shortened.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:maxQuoted]) + fmt.Sprintf("... (%d bytes)", len(s))
}
