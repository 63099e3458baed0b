// Package handover is what an ApplicationMaster attempt hands the next
// and takes over from the ones before it (docs/reliability.md), as
// decisions over values: which journal entries a turn of the loop
// writes (entries.go); how long an attempt tries a journal that cannot
// be read before it starts the work over (reading.go); which jobs it
// resumes with which tasks done and failures counted, or what it ends
// when it starts over (resume.go); and which of the containers YARN
// kept it adopts, dialling their executors, or releases and waits for
// (kept.go).
//
// Like am/core it does no I/O, starts no goroutine and reads no clock:
// the driver's loop (package am) and deploy/appmaster call it and do
// what it says (dial, journal, wait), and the fault simulator
// (am/faultsim) calls the same functions on a simulated clock, so that
// the restart path it checks is the product's. `make lint`'s
// tools/puritycheck reads its sources as it reads the cores'.
package handover
