package history

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// at is t0 plus s seconds.
func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// memStore is a SegmentStore in memory.
type memStore struct {
	mu    sync.Mutex
	files map[string][]byte
	fail  error // every Write's error while set
}

func newMemStore() *memStore { return &memStore{files: map[string][]byte{}} }

func (m *memStore) List(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for n := range m.files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

func (m *memStore) Read(_ context.Context, name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return slices.Clone(b), nil
}

func (m *memStore) Write(_ context.Context, name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.files[name] = slices.Clone(data)
	return nil
}

func (m *memStore) Remove(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, name)
	return nil
}

var errAway = errors.New("the file system is away")

// script is an application's events: a job of two stages (3 tasks, then
// 1 after it) in pool prod, on two executors.
func script() []Event {
	return []Event{
		{Time: at(0), App: &AppStarted{ID: "application_1_0001", Name: "train", User: "alice", Master: "yarn", Session: true}},
		{Time: at(0), Pools: []PoolInfo{{Name: "prod", Mode: "FAIR", Weight: 2, MinShare: 1}, {Name: "default", Mode: "FIFO", Weight: 1}}},
		{Time: at(1), ExecutorAdded: &ExecutorAdded{ID: "e1", Host: "n1", Container: "container_1_0001_01_000002", Profile: "0", Cores: 2, GPUs: []string{"0", "1"}}},
		{Time: at(1), ExecutorAdded: &ExecutorAdded{ID: "e2", Host: "n2", Container: "container_1_0001_01_000003", Profile: "0", Cores: 2, GPUs: []string{"0"}}},
		{Time: at(2), JobSubmitted: &JobSubmitted{ID: 0, Name: "train", Pool: "prod", Stages: []StageInfo{
			{ID: 0, Name: "fit", Tasks: 3, GPUs: 0.5, Cores: 1}, {ID: 1, Name: "report", Tasks: 1, Parents: []int64{0}, Cores: 1}}}},
		{Time: at(3), TaskStarted: &TaskStarted{Stage: 0, Index: 0, Attempt: 0, Executor: "e1", GPUs: []string{"0"}}},
		{Time: at(3), TaskStarted: &TaskStarted{Stage: 0, Index: 1, Attempt: 0, Executor: "e2", GPUs: []string{"0"}}},
		{Time: at(5), TaskEnded: &TaskEnded{Stage: 0, Index: 0, Attempt: 0, Executor: "e1", State: TaskSucceeded}},
		{Time: at(6), TaskEnded: &TaskEnded{Stage: 0, Index: 1, Attempt: 0, Executor: "e2", State: TaskFailed, ExitCode: 3, Reason: "exit status 3"}},
		{Time: at(6), TaskStarted: &TaskStarted{Stage: 0, Index: 1, Attempt: 1, Executor: "e1", GPUs: []string{"1"}}},
		{Time: at(7), ExecutorRemoved: &ExecutorRemoved{ID: "e2", Reason: "container exited with 137", Lost: true}},
		{Time: at(8), TaskStarted: &TaskStarted{Stage: 0, Index: 2, Attempt: 0, Executor: "e1", GPUs: []string{"0"}}},
	}
}

func record(t *testing.T, s *Store, events ...Event) {
	t.Helper()
	if err := s.Record(events...); err != nil {
		t.Fatal(err)
	}
}
