package appmaster

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// identifier writes a delegation token identifier as Hadoop does: version
// 0, three Texts (empty here), then issue and max dates as vlongs of 8
// bytes, sequence number and master key id.
func identifier(issued, maxDate time.Time) []byte {
	b := []byte{0, 0, 0, 0}
	for _, ms := range []int64{issued.UnixMilli(), maxDate.UnixMilli()} {
		b = append(b, 0x88) // -120: a positive vlong of 8 bytes
		for i := 7; i >= 0; i-- {
			b = append(b, byte(uint64(ms)>>(8*i)))
		}
	}
	return append(b, 1, 1)
}

func TestTokensDue(t *testing.T) {
	issued := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	for _, tc := range []struct {
		interval time.Duration
		maxDate  time.Time
		want     time.Time
	}{
		{24 * time.Hour, issued.Add(week), issued.Add(18 * time.Hour)},         // the renewal interval comes first
		{0, issued.Add(week), issued.Add(126 * time.Hour)},                     // renewed by the RM: the max date
		{24 * time.Hour, issued.Add(4 * time.Hour), issued.Add(3 * time.Hour)}, // a max date before the interval's end
	} {
		if got := tokensDue(issued, tc.maxDate, tc.interval, 0.75); !got.Equal(tc.want) {
			t.Errorf("tokensDue(interval %s, max %s) = %s, want %s", tc.interval, tc.maxDate, got, tc.want)
		}
	}
	tokens := []credentials.Token{
		{Kind: "HDFS_DELEGATION_TOKEN", Identifier: identifier(issued, issued.Add(week))},
		{Kind: "HDFS_DELEGATION_TOKEN", Identifier: identifier(issued.Add(-time.Hour), issued.Add(week))},
		{Kind: "OTHER", Identifier: []byte("not a delegation identifier")},
	}
	if due, ok := earliestDue(tokens, time.Hour, 0.5); !ok || !due.Equal(issued.Add(-30*time.Minute)) {
		t.Errorf("earliestDue = %s, %v; want the older token's, %s", due, ok, issued.Add(-30*time.Minute))
	}
	if _, ok := earliestDue(tokens[2:], time.Hour, 0.5); ok {
		t.Error("earliestDue found a due date in a token with no delegation identifier")
	}
}

// Without a keytab the application ends, saying why, before its tokens
// stop working.
func TestEndBeforeExpiry(t *testing.T) {
	now := time.Now()
	tokens := []credentials.Token{{Kind: "HDFS_DELEGATION_TOKEN", Identifier: identifier(now.Add(-time.Second), now.Add(400*time.Millisecond))}}
	ctx, end := context.WithCancelCause(context.Background())
	defer end(nil)
	log := logrus.New()
	go endBeforeExpiry(ctx, tokens, 0.75, end, log)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the application was not ended before its tokens expired")
	}
	if time.Now().After(now.Add(400 * time.Millisecond)) {
		t.Errorf("ended at %s, after the tokens' max date", time.Since(now))
	}
	if cause := context.Cause(ctx); cause == nil || !strings.Contains(cause.Error(), "no keytab") || !strings.Contains(cause.Error(), "spindle.kerberos.keytab") {
		t.Errorf("the cause %v does not say what to do", cause)
	}
}
