package metrics

// What the journal's writer (am/journal) writes for the AM's next
// attempt: its size, and the segments it writes and refuses. Its
// Meter: called from the writer's goroutine.

// JournalWritten counts a segment of segmentBytes written; the journal
// the next attempt would read is now journalBytes.
func (m *Metrics) JournalWritten(segmentBytes, journalBytes int) {
	if m == nil {
		return
	}
	m.journalSegments.Inc()
	m.journalBytes.Set(float64(journalBytes))
}

// JournalRefused counts a segment not written for being over the size a
// reader takes.
func (m *Metrics) JournalRefused(int) {
	if m == nil {
		return
	}
	m.journalRefused.Inc()
}
