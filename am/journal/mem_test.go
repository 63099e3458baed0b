package journal

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
)

// memStore is a Store in memory that notes when each segment was
// written: no file system, so a test may run on a fake clock.
type memStore struct {
	mu       sync.Mutex
	segments map[string][]byte
	writes   []time.Time
}

func newMemStore() *memStore { return &memStore{segments: map[string][]byte{}} }

func (m *memStore) List(context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.segments)), nil
}

func (m *memStore) Read(_ context.Context, name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.segments[name]
	if !ok {
		return nil, fmt.Errorf("%s: no such segment", name)
	}
	return data, nil
}

func (m *memStore) Write(_ context.Context, name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.segments[name] = data
	m.writes = append(m.writes, time.Now())
	return nil
}

func (m *memStore) Remove(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.segments, name)
	return nil
}

// bytes is the size of every segment there.
func (m *memStore) bytes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, data := range m.segments {
		n += len(data)
	}
	return n
}
