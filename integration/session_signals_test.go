package integration

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What signals do to `spindle submit --session`, at each step (off a
// terminal): while it is still connecting, SIGINT gives up at once and
// leaves no job behind, and SIGHUP does nothing to a --detach submit;
// while it follows its job, SIGHUP (its terminal closed) and SIGTERM
// cancel the job.
func TestLocalSessionSubmitSignals(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[1]")
	_, rec := u.sessionRecord(id)
	driver := int(rec["pid"].(float64))
	// Whatever fails below, the driver is not left stopped: stopped, it
	// would not hear the session's end and outlive the test. (Cleanups
	// run last first: this before the session's own.)
	t.Cleanup(func() { syscall.Kill(driver, syscall.SIGCONT) })

	// Connecting: the driver is stopped, so the client waits for its
	// handshake.
	syscall.Kill(driver, syscall.SIGSTOP)
	cmd, out := u.start("submit", "--session", id, "--name", "early", "--tasks", "1", "--", "sleep", "120")
	time.Sleep(700 * time.Millisecond)
	if cmd.ProcessState != nil {
		syscall.Kill(driver, syscall.SIGCONT)
		t.Fatalf("the client ended before the signal:\n%s", out.String())
	}
	cmd.Process.Signal(os.Interrupt)
	took, err := exited(t, cmd, 5*time.Second)
	syscall.Kill(driver, syscall.SIGCONT)
	if err == nil || took > time.Second || !strings.Contains(out.String(), "interrupted by interrupt: nothing was submitted") {
		t.Errorf("interrupted while connecting: %v after %v, want a failure within 1s saying nothing was submitted\n%s", err, took, out.String())
	}
	if jobs, err := u.run("jobs", id); err != nil || strings.Contains(jobs, "early") {
		t.Errorf("after an interrupt while connecting, the session has: %v\n%s", err, jobs)
	}

	// With --detach a hangup while connecting is no reason to give up: the
	// job is meant to outlive the terminal.
	syscall.Kill(driver, syscall.SIGSTOP)
	cmd, out = u.start("submit", "--session", id, "--detach", "--name", "detached", "--tasks", "1", "--", "sleep", "120")
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGHUP)
	time.Sleep(300 * time.Millisecond)
	syscall.Kill(driver, syscall.SIGCONT)
	if _, err := exited(t, cmd, 10*time.Second); err != nil || !strings.Contains(out.String(), "submitted to session") {
		t.Errorf("--detach, hung up while connecting: %v, want the job submitted\n%s", err, out.String())
	}
	if jobs, _ := u.run("jobs", id); !regexp.MustCompile(`detached\s+default\s+RUNNING`).MatchString(jobs) {
		t.Errorf("after a hangup of a detached submit:\n%s", jobs)
	}

	// Following: SIGHUP and SIGTERM cancel the job.
	for _, c := range []struct {
		sig    syscall.Signal
		reason string
	}{{syscall.SIGHUP, "hangup: its terminal closed"}, {syscall.SIGTERM, "terminated"}} {
		name := "followed-" + strings.ToLower(strings.TrimPrefix(c.sig.String(), "SIG"))
		cmd, out := u.start("submit", "--session", id, "--name", name, "--tasks", "1", "--", "sleep", "120")
		waitFor(t, 30*time.Second, "the job to be submitted", func() bool { return strings.Contains(out.String(), "submitted to session") })
		cmd.Process.Signal(c.sig)
		_, err := exited(t, cmd, 30*time.Second)
		want := "job " + name + " CANCELLED: by its submitter (" + c.reason + ")"
		if err == nil || !strings.Contains(out.String(), want) {
			t.Errorf("%v while following: %v, want a failure saying %q\n%s", c.sig, err, want, out.String())
		}
		if jobs, _ := u.run("jobs", id); !regexp.MustCompile(name + `\s+default\s+CANCELLED`).MatchString(jobs) {
			t.Errorf("after %v while following:\n%s", c.sig, jobs)
		}
	}

}

// spindleProcess finds the spindle process whose command line has all
// of parts: the program itself, not script(1) or the shell script(1)
// runs it with (dash, the usual /bin/sh, does not exec its command).
func spindleProcess(t *testing.T, parts ...string) int {
	t.Helper()
	var found int
	waitFor(t, 10*time.Second, "the process "+strings.Join(parts, " "), func() bool {
		pids := processes(func(pid int) bool {
			line := cmdline(pid)
			all := strings.HasPrefix(line, spindleBinary(t)+" ")
			for _, p := range parts {
				all = all && strings.Contains(line, p)
			}
			return all
		})
		if len(pids) > 0 {
			found = pids[0]
		}
		return len(pids) > 0
	})
	return found
}

// On a terminal (script(1) gives it one), an interrupt asks whether to
// cancel the followed job: "y" cancels it, and a second interrupt while
// asked ends the client at once, leaving the job running.
func TestLocalSessionSubmitAsksOnATerminal(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[1]")
	for _, answer := range []string{"y\n", "a second interrupt"} {
		name := "asked-" + strings.Fields(answer)[0]
		name = strings.TrimSuffix(name, "\n")
		cmd := exec.Command("script", "-qfec", spindleBinary(t)+" submit --session "+id+" --name "+name+" --tasks 1 -- sleep 120", "/dev/null")
		cmd.Env = u.env
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill() })
		waitFor(t, 30*time.Second, "the job to be submitted", func() bool { return strings.Contains(out.String(), "submitted to session") })
		client := spindleProcess(t, "submit --session "+id, "--name "+name)
		syscall.Kill(client, syscall.SIGINT)
		waitFor(t, 10*time.Second, "the question", func() bool { return strings.Contains(out.String(), "cancel job") })
		if answer == "y\n" {
			stdin.Write([]byte(answer))
			exited(t, cmd, 30*time.Second)
			if !strings.Contains(out.String(), "job "+name+" CANCELLED: by its submitter (interrupted)") {
				t.Errorf("answered y:\n%s", out.String())
			}
			continue
		}
		syscall.Kill(client, syscall.SIGINT)
		if took, _ := exited(t, cmd, 5*time.Second); took > time.Second || !strings.Contains(out.String(), "interrupted by interrupt again: job") ||
			!strings.Contains(out.String(), "left running") {
			t.Errorf("a second interrupt while asked: after %v, want the client ended at once, the job left running\n%s", took, out.String())
		}
		if jobs, _ := u.run("jobs", id); !regexp.MustCompile(name + `\s+default\s+RUNNING`).MatchString(jobs) {
			t.Errorf("after a second interrupt while asked, want the job running:\n%s", jobs)
		}
	}
}

// A job spec read from standard input, or a process substitution, both
// of which can be read only once, is submitted to a session.
func TestLocalSessionTakesASpecFromStandardInput(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[1]")
	spec := writeSpec(t, "name: piped\nstages:\n  - {name: s, tasks: 2, command: [\"true\"]}\n")
	for _, line := range []string{
		"cat " + spec + " | " + spindleBinary(t) + " submit --session " + id + " /dev/stdin",
		spindleBinary(t) + " submit --session " + id + " <(cat " + spec + ")",
	} {
		cmd := exec.Command("bash", "-c", line)
		cmd.Env = u.env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "job piped SUCCEEDED") {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
}

// A client following its job hears, when the session's driver dies, that
// it did, not that a connection closed.
func TestLocalSessionFollowerHearsTheDriverDie(t *testing.T) {
	u := newSessionUser(t)
	id := u.startSession("--master", "local[1]")
	_, rec := u.sessionRecord(id)
	driver := int(rec["pid"].(float64))
	cmd, out := u.start("submit", "--session", id, "--name", "orphan", "--tasks", "1", "--", "sleep", "120")
	waitFor(t, 30*time.Second, "the job to be submitted", func() bool { return strings.Contains(out.String(), "submitted to session") })
	syscall.Kill(driver, syscall.SIGKILL)
	_, err := exited(t, cmd, 30*time.Second)
	want := "session " + id + " ended before job 0 did: its driver (pid " + strconv.Itoa(driver) + ") has exited"
	if err == nil || !strings.Contains(out.String(), want) {
		t.Errorf("the follower: %v, want it to say %q\n%s", err, want, out.String())
	}
}
