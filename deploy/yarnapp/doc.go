// Package yarnapp is the client side of a Spindle application on YARN:
// connecting to the ResourceManager from HADOOP_CONF_DIR, checking before a
// submission what would otherwise fail late (a GPU resource type the RM does
// not know, a container above the cluster's maximum allocation, an unknown
// queue), submitting an application (Submit: staging its files, the
// ApplicationMaster's launch context and credentials, the names of the
// files it ships to the AM), killing one, and reading applications for
// `spindle status`, `kill` and `list`.
package yarnapp
