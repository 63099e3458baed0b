package core

// Special values of ContainerStatusProto.exit_status (Hadoop's
// ContainerExitStatus); any other value is the exit code of the
// container's process, 128+N when signal N killed it.
const (
	ExitSuccess                    = 0
	ExitInvalid                    = -1000 // no exit status (yet)
	ExitAborted                    = -100  // released by the AM, or its node was lost
	ExitDisksFailed                = -101  // the NodeManager's disks went bad
	ExitPreempted                  = -102  // taken back for another application
	ExitKilledExceededVMem         = -103  // over its virtual memory limit
	ExitKilledExceededPMem         = -104  // over its physical memory limit
	ExitKilledByAppMaster          = -105  // stopped by the AM through its NodeManager
	ExitKilledByResourceManager    = -106  // the RM had it killed
	ExitKilledAfterAppCompletion   = -107  // still running when the application ended
	ExitKilledByContainerScheduler = -108  // an opportunistic container made way
	ExitKilledForExcessLogs        = -109  // wrote more logs than allowed
)
