package history

// Limits bound what a Store keeps, as Spark's spark.ui.retained* do: a
// session that runs for weeks keeps the newest ended jobs, the first
// tasks of a huge stage, and a timeline that grows coarser, never more.
type Limits struct {
	// RetainedJobs is how many ended jobs are kept, the newest; running
	// jobs are always kept.
	RetainedJobs int
	// RetainedTasks is how many tasks of a stage are listed one by one
	// (those with the lowest indices, at most MaxRetainedTasks); its
	// counts cover them all.
	RetainedTasks int
	// RetainedAttempts is how many attempts of a listed task are kept
	// (attempts.go): its first, which usually failed for the reason
	// that matters, and the latest others; those between are counted.
	RetainedAttempts int
	// TimelinePoints is how many points the timeline keeps: once full,
	// every other point goes and the step doubles.
	TimelinePoints int
}

// DefaultLimits are spindle.ui.retainedJobs, retainedTasks,
// retainedAttempts and timelinePoints' defaults.
var DefaultLimits = Limits{RetainedJobs: 1000, RetainedTasks: 100000, RetainedAttempts: 8, TimelinePoints: 1024}
