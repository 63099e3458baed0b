package deploy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runSplit runs the command line in-process, keeping stdout and stderr
// apart.
func runSplit(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	app := NewApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run(append([]string{"spindle"}, args...))
	return out.String(), errOut.String(), err
}

// spec writes a job spec into a temporary directory and returns its path.
func spec(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const oneTask = "name: j\nstages:\n  - {name: a, tasks: 1, command: \"true\"}\n"

func TestVersionFlagPrintsWhatVersionPrints(t *testing.T) {
	want, _, err := runSplit("version")
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := runSplit("--version")
	if err != nil || got != want {
		t.Fatalf("spindle --version = %q, %v; want %q, as spindle version prints", got, err, want)
	}
	if _, _, err := runSplit("--version", "submit"); err == nil || err.Error() != `--version takes no command, got "submit"` {
		t.Fatalf("spindle --version submit: err = %v, want it refused", err)
	}
}

func TestUnknownCommandSuggestsTheNearestVisibleOne(t *testing.T) {
	for _, c := range []struct{ typed, want string }{
		{"sumbit", `unknown command "sumbit"; did you mean submit? ('spindle help' lists the commands)`},
		{"Status", `unknown command "Status"; did you mean status? ('spindle help' lists the commands)`},
		{"frobnicate", `unknown command "frobnicate" ('spindle help' lists the commands)`},
		{"executr", `unknown command "executr" ('spindle help' lists the commands)`}, // hidden: internal
	} {
		_, _, err := runSplit(c.typed)
		if err == nil || err.Error() != c.want {
			t.Errorf("spindle %s: err = %v, want %q", c.typed, err, c.want)
		}
	}
}

func TestFlagErrorsAreOneLineWithADidYouMean(t *testing.T) {
	path := spec(t, oneTask)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"submit", "--mastr", "yarn", path}, "submit: unknown flag --mastr; did you mean --master? ('spindle submit --help' lists the flags)"},
		{[]string{"submit", "-num-executor", "2", path}, "submit: unknown flag --num-executor; did you mean --num-executors? ('spindle submit --help' lists the flags)"},
		{[]string{"submit", "--deploy-mode", "cluster", path}, "submit: unknown flag --deploy-mode ('spindle submit --help' lists the flags)"},
		{[]string{"--verison"}, "unknown flag --verison; did you mean --version? ('spindle --help' lists the flags)"},
		{[]string{"sim", "--trace"}, "sim: --trace needs a value"},
		{[]string{"submit", "--tasks", "two", "--", "true"}, "submit: --tasks two: not a valid value"},
	} {
		stdout, _, err := runSplit(c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("spindle %s: err = %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
		if stdout != "" {
			t.Errorf("spindle %s printed %q besides the error, want nothing", strings.Join(c.args, " "), stdout)
		}
	}
}

func TestFlagsAfterTheSpecAreRefusedShowingTheOrder(t *testing.T) {
	path := spec(t, oneTask)
	_, _, err := runSplit("submit", path, "--master", "local[1]")
	want := "--master comes after the job spec " + path + ", where flags are not read; put them first: spindle submit --master 'local[1]' " + path
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	_, _, err = runSplit("submit", "--conf", "spindle.task.cpus=1", path, "--name", "x")
	want = "--name comes after the job spec " + path + ", where flags are not read; put them first: spindle submit ... --name x " + path
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestMasterErrorsNameWhereTheValueCameFrom(t *testing.T) {
	path := spec(t, oneTask)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--master", "lcal"}, "--master lcal: want local, local[N], local[*] or yarn"},
		{[]string{"--master", "local[0]"}, "--master 'local[0]': N, the executor count, must be from 1 to 999999"},
		{[]string{"--conf", "spark.master=lcal"}, `--conf: spark.master (spindle.master)="lcal": want local, local[N], local[*] or yarn`},
	} {
		_, _, err := runSplit(append(append([]string{"submit"}, c.args...), path)...)
		if err == nil || err.Error() != c.want {
			t.Errorf("submit %s: err = %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}
