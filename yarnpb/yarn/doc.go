// Package yarn holds typed clients for the three YARN protocols Spindle
// speaks, over package ipc:
//
//	ApplicationClient  ApplicationClientProtocol     submit, follow and kill
//	                                                  applications; cluster facts
//	AMRMClient         ApplicationMasterProtocol     an AM's register, allocate,
//	                                                  finish (AMRMToken)
//	NMClient           ContainerManagementProtocol   start, stop and query
//	                                                  containers (NMToken)
//
// Requests and responses are the generated messages of package hadoopyarn;
// the helpers in resource.go build and read resources of any type, yarn.io/gpu
// included.
package yarn
