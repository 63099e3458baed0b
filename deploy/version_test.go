package deploy

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommandPrintsVersionAndPlatform(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v1.2.3-test"

	var out bytes.Buffer
	app := NewApp()
	app.Writer = &out
	if err := app.Run([]string{"spindle", "version"}); err != nil {
		t.Fatalf("spindle version: %v", err)
	}
	want := "spindle v1.2.3-test (" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if out.String() != want {
		t.Fatalf("spindle version printed %q, want %q", out.String(), want)
	}
}

func TestUnknownCommandIsAnError(t *testing.T) {
	var out bytes.Buffer
	app := NewApp()
	app.Writer, app.ErrWriter = &out, &out
	err := app.Run([]string{"spindle", "no-such-command"})
	if err == nil || !strings.Contains(err.Error(), `unknown command "no-such-command"`) {
		t.Fatalf("spindle no-such-command: err = %v, want one naming the command", err)
	}
}
