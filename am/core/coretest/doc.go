// Package coretest drives the ApplicationMaster's core (am/core) through
// scripted scenarios on a clock of its own, with no sockets, goroutines or
// sleeps: the AM's rules are tested as the scheduler's are, and other
// packages' tests can script the core the same way (etcd-io/raft's
// rafttest and Nomad's Harness are the models).
//
// A script is blocks of a command, its input lines, "----" and the
// expected output, read and run by internal/scenario as the scheduler's
// scripts in scheduler/testdata are. A number, duration or word that does
// not read, and a key or flag a command does not take, fail the script
// with its file and line:
//
//	config losswait=10s heartbeat=30s grace=10s containers initial=2 maxgpus=2 pernode=2 maxfailures=0 beat=1s eager=200ms fine dynamic session
//	profile id=0 cores=1 gpus=1 mem=1024 [initial=N: this profile's, over the config's for the first]
//	----
//	ok
//
// Commands (key=value arguments; "reason=" and "why=" take the rest of
// the line):
//
//	config [mode=FAIR] ...     (input lines: profile ..., pool name=P weight=W minshare=M mode=FAIR) starts the core
//	submit name=j tasks=N cpus=C gpus=G mem=MiB pool=P attempts=A [command=false] [profile=P: its stage's]
//	register id=c1 host=h1 cores=1 gpus=0,1
//	status id=c1 s0/0#0 ok|fail|killed|started [exit=1] [reason=...]
//	seen id=c1 | ended id=c1 reason=... | rejected
//	allocated [nodes=N]        (input lines: container c1 node=n1:1 name=n1 profile=0|ask=1
//	                            | completed c1 status=137 diag=...
//	                            | preempted c1
//	                            | node n1:1 name=n1 state=SHUTDOWN [timeout=30s])
//	launch-failed id=c1 why=...
//	resynced | fail reason=... | cancel job=0 reason=... | stop reason=...
//	jobs                       prints Jobs (FormatJobs)
//	advance 1s                 moves the clock
//	ready                      prints the batch (Format)
//	status-page                prints the Status
//
// A container names the ask it fills by its allocation request id
// (ask=ID), or by its profile (profile=P): the harness keeps the asks the
// core sent in a fake RM (am/core/fakerm, the simulator's too), and
// Harness.ContainerFor picks the id it would fill.
//
// Run a directory of scripts with Run, one with RunFile; `go test -run X
// -update` rewrites their expected output from what the core does now.
package coretest
