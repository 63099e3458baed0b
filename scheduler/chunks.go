package scheduler

// A stage keeps the state of its launched tasks in chunks of chunkTasks,
// made as the first task of each is launched (tasks launch in index
// order, retries aside) and dropped once every task of it has succeeded.
// So a task never launched costs nothing, a job's memory follows the
// tasks it has in flight rather than its size, and no chunk is ever
// copied to grow. A session holding a 10M-task job kept 84 bytes per
// task while it waited (docs/sessions.md has the figures).

// chunkTasks is how many tasks share a chunk.
const chunkTasks = 1024

// taskChunk is the state of up to chunkTasks consecutive tasks.
type taskChunk struct {
	tasks []task // nil once dropped
	left  int    // tasks not yet succeeded
}

// addChunk makes the chunk whose first task is idx.
func (st *stage) addChunk(idx int) {
	n := min(chunkTasks, st.spec.Tasks-idx)
	st.chunks = append(st.chunks, taskChunk{tasks: make([]task, n), left: n})
}

// task is the state of launched task idx; nil for one never launched, or
// whose chunk was dropped (it succeeded, or its job ended).
func (st *stage) task(idx int) *task {
	if idx < 0 || idx >= st.launched {
		return nil
	}
	c := &st.chunks[uint(idx)/chunkTasks]
	if c.tasks == nil {
		return nil
	}
	return &c.tasks[uint(idx)%chunkTasks]
}

// at is the state of task idx, which is running, queued as a retry or
// backing off: launched, in a chunk not dropped.
func (st *stage) at(idx int32) *task {
	return &st.chunks[uint32(idx)/chunkTasks].tasks[uint32(idx)%chunkTasks]
}

// countSucceeded counts task idx as succeeded in its chunk, dropping the
// chunk when it was the last.
func (st *stage) countSucceeded(idx int) {
	c := &st.chunks[uint(idx)/chunkTasks]
	if c.left--; c.left == 0 {
		c.tasks = nil
	}
}
