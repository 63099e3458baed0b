// Package launcher starts executors: in YARN containers through the
// NodeManagers' ContainerManagementProtocol, or as local processes in local
// mode. Each executor is given its exact GPU list, chosen as docs/architecture.md
// ("GPU addresses") describes: assigned by the NodeManager, visible in the
// container, or distinct indices the AM assigns per node (am/core).
package launcher
