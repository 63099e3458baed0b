// Package amtest runs the driver (am.Driver) for tests, with fake
// executors, session clients and ResourceManager that the test scripts,
// over the real protocols on loopback, and without a sleep: a test waits
// on the message a fake receives, on a turn of the loop at which the
// state it awaits holds, or on Run's end, each bounded by Patience, past
// which the test fails saying what it awaited. The driver's tests use it
// (as am/core/coretest scripts the core); the product never imports it.
//
//	d := amtest.Start(t, amtest.Tasks(t, 2, "true")) // or StartSpec(t, yaml), StartSession(t); WithCore, WithLog, WithYARN...
//	e := d.Register(t, "e1", amtest.Cores(2))        // Host, GPUs, Accelerator, Rejoining too
//	e.Registered(t)                                  // the driver's answer; Rejected(t) returns a refusal's reason
//	ls := e.Launches(t)                              // reads on to the next LaunchBatch; Kill, Drain, PickPort, Credentials, JobsEnded, Shutdown alike
//	e.Report(t, amtest.Succeeded(ls[0]))             // Started, Failed, Killed; Heartbeat(t, gpus...), PortPicked(t, gang, port)
//	d.AwaitStatus(t, "one task done", func(st core.Status) bool { return st.Succeeded == 1 })
//	e.Vanish()                                       // drops the connection with no word
//	res := d.Wait(t)                                 // what Run returned: Summary, Final, Err
//
// A fake executor reads only when asked (Next, Receive, Ended and the
// expectations above): one nobody asks stalls, as a stopped process, and
// the driver's writes to it back up. Serve has it answer from a goroutine
// of its own instead: tasks running sleep until killed, any other
// succeeding at once; BeatEvery has it send heartbeats.
//
// Await and AwaitStatus test their condition in the loop, at the end of
// every turn (am.Config.Turned), and return at the first turn it holds:
// what the loop alone writes (a journal's state) may be read there, and
// nothing asks the loop again and again meanwhile. The condition must not
// call into the driver.
//
// StartSession runs a session; its clients (Driver.Client) Submit,
// SubmitFollow, Follow, Jobs, Cancel, Stop and ask for Stats, each a
// connection of its own with the session's secret, or send any request
// with Request. WithYARN runs the driver on YARN with a FakeRM, an IPC
// server answering allocates from the test's script (FakeRM.Client serves
// one to an application master of the test's own). The test's end
// cancels Run, waits for it to return and closes every fake's connection;
// a failing test shows the driver's log.
package amtest
