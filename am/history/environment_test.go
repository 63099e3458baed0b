package history

import (
	"reflect"
	"testing"
)

// The settings the driver logged stay through a snapshot.
func TestTheEnvironmentSurvivesASnapshot(t *testing.T) {
	env := []Setting{{Key: "spindle.app.name", Value: "train", Source: "--conf"}, {Key: "k", Value: "*", Source: "default", Redacted: true}}
	s := NewStore(Limits{})
	record(t, s, Event{Time: at(0), App: &AppStarted{ID: "local-1"}}, Event{Time: at(0), Environment: env})
	again := NewStore(Limits{})
	record(t, again, s.Snapshot()...)
	if got := again.Environment(); !reflect.DeepEqual(got, env) {
		t.Errorf("from a snapshot: %+v, want %+v", got, env)
	}
}
