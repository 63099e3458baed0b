package tasklog

// Policy is how much of its ended jobs' task files an executor of a
// session keeps (spindle.session.taskLogs.*). A field of 0 sets no limit.
// A running job's files are never counted here nor removed.
type Policy struct {
	// MaxJobs is how many ended jobs' files are kept: the most recently
	// ended.
	MaxJobs int
	// MaxBytes is how many bytes the ended jobs' files kept may hold.
	MaxBytes int64
}

// Retention is one executor's ended jobs that still have files, oldest
// ended first, under a Policy. It decides; the executor removes.
type Retention struct {
	policy Policy
	ended  []endedJob
	bytes  int64
}

type endedJob struct {
	job   int64
	bytes int64
}

// NewRetention keeps ended jobs' files by p.
func NewRetention(p Policy) *Retention { return &Retention{policy: p} }

// Ended records that job, which has files of bytes bytes here, ended (each
// job once), and returns the jobs whose files are now to be removed,
// oldest ended first: the oldest ended job goes while more than MaxJobs
// have files, or while their files hold more than MaxBytes. So a job whose
// files alone are over MaxBytes goes as soon as it ends.
func (r *Retention) Ended(job, bytes int64) (remove []int64) {
	r.ended = append(r.ended, endedJob{job, bytes})
	r.bytes += bytes
	for len(r.ended) > 0 && r.over() {
		oldest := r.ended[0]
		r.ended = r.ended[1:]
		r.bytes -= oldest.bytes
		remove = append(remove, oldest.job)
	}
	return remove
}

func (r *Retention) over() bool {
	return (r.policy.MaxJobs > 0 && len(r.ended) > r.policy.MaxJobs) ||
		(r.policy.MaxBytes > 0 && r.bytes > r.policy.MaxBytes)
}

// Kept is how many ended jobs' files are kept, and their bytes.
func (r *Retention) Kept() (jobs int, bytes int64) { return len(r.ended), r.bytes }
