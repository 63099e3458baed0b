package appmaster

import (
	"strconv"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopconf"
)

// The last attempt is the one at the smaller of what the application
// asked for and the RM's cap (YARN's default 2 where the AM cannot read
// it): exactly at it is the last, one before it is not.
func TestLastAttemptIsAtTheSmallerOfAskedAndTheRMsCap(t *testing.T) {
	for _, c := range []struct {
		asked, rmCap string // "" leaves it unset
		attempt      int
		last         bool
	}{
		{"", "", 1, false}, // 2 asked by default, 2 by YARN's default
		{"", "", 2, true},
		{"3", "", 2, true}, // capped at YARN's default
		{"3", "4", 2, false},
		{"3", "4", 3, true},
		{"4", "3", 3, true},
		{"1", "4", 1, true},
		{"5", "4", 5, true}, // past the last (never given): still the last
	} {
		var over []string
		if c.asked != "" {
			over = append(over, "spindle.yarn.maxAppAttempts="+c.asked)
		}
		conf, err := config.Load(nil, over)
		if err != nil {
			t.Fatal(err)
		}
		hconf := hadoopconf.New(hadoopconf.Env{})
		if c.rmCap != "" {
			hconf.Set(rmMaxAttemptsKey, c.rmCap)
		}
		id := "container_1795700000000_0007_0" + strconv.Itoa(c.attempt) + "_000001"
		last, which, err := lastAttempt(conf, hconf, id)
		if err != nil || last != c.last || !strings.HasPrefix(which, "attempt "+strconv.Itoa(c.attempt)+" of at most ") {
			t.Errorf("asked %q, cap %q, attempt %d: last %v (%q), %v; want %v", c.asked, c.rmCap, c.attempt, last, which, err, c.last)
		}
	}
}

// An AM that cannot tell which attempt it is, or the cap, takes itself as
// the last: a termination then unregisters, as it always did, rather than
// leaving an application no attempt may follow.
func TestLastAttemptWhenUnsure(t *testing.T) {
	conf, err := config.Load(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if last, _, err := lastAttempt(conf, hadoopconf.New(hadoopconf.Env{}), "not-a-container"); !last || err == nil || !strings.Contains(err.Error(), "CONTAINER_ID") {
		t.Errorf("a bad CONTAINER_ID: last %v, %v; want last and an error naming it", last, err)
	}
	hconf := hadoopconf.New(hadoopconf.Env{})
	hconf.Set(rmMaxAttemptsKey, "many")
	if last, _, err := lastAttempt(conf, hconf, "container_1795700000000_0007_01_000001"); !last || err == nil {
		t.Errorf("an unreadable cap: last %v, %v; want last and an error", last, err)
	}
}
