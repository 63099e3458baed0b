package executor

import "errors"

// ErrDriverGone is what Serve's error wraps when the executor stopped
// its tasks because its driver went: its connection ended and no new
// one dialled in within the rejoin timeout, or it had no rejoin
// listener. The process then exits with exitstatus.DriverGone, which
// its ApplicationMaster, if it lives, blames on no task.
var ErrDriverGone = errors.New("the ApplicationMaster is gone")
