package am_test

import (
	"reflect"
	"testing"

	"github.com/spindle-yarn/spindle/am/amtest"
	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// Fresh delegation tokens go to the loop, which owns them: the executors
// connected get them as a credentials file, one that registers later gets
// them at once, and once Run has returned Tokens has them for the AM's
// own use (removing the staging directory).
func TestFreshTokensReachTheExecutorsAndOutliveTheLoop(t *testing.T) {
	d := amtest.Start(t, amtest.Tasks(t, 1, "true"))
	first := d.Register(t, "e1")
	tasks := first.Launches(t)
	fresh := []credentials.Token{{Alias: "nn", Kind: "HDFS_DELEGATION_TOKEN", Service: "nn:8020", Identifier: []byte("id"), Password: []byte("pw")}}
	d.UpdateTokens(fresh)
	if got := first.Credentials(t); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("the connected executor got %v, want %v", got, fresh)
	}
	later := d.Register(t, "e2", amtest.Host("h2"))
	if got := later.Credentials(t); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("an executor registering later got %v, want %v", got, fresh)
	}
	first.Report(t, amtest.Succeeded(tasks[0]))
	d.Wait(t)
	if got := d.Tokens(); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("Tokens after Run = %v, want the fresh ones %v", got, fresh)
	}
}
