// Package latest hands the newest of a stream of values from a producer
// that must never wait (the driver's loop, handing on a job's progress)
// to a consumer that may be slow or stuck (a terminal, whose reader may
// have stopped): the consumer gets the newest value whenever it can take
// one, values it had no time for are dropped, and nothing queues.
package latest
