// Package nodemanager starts executors in YARN containers: for each
// container the ResourceManager allocated, it calls startContainers on the
// container's NodeManager with the executors' shared launch context (the
// spindle binary and the job's files as local resources, the credentials,
// the command) plus what is the container's own: its executor id and GPU
// indices. Launches run in parallel, a bounded number at a time, and
// authenticate with the NMToken the RM sent for each node, kept for the
// application's lifetime because the RM sends it only once. It stops the
// containers an earlier ApplicationMaster attempt left that this one
// releases, too, and says when each is gone (stop.go): the RM's word
// that a released container completed comes before it is.
package nodemanager
