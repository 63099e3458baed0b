package hadoopconf

import (
	"fmt"
	"net/url"
	"strings"
)

// AuthMethod is hadoop.security.authentication.
type AuthMethod string

// The authentication methods a Hadoop client can be configured with.
const (
	AuthSimple   AuthMethod = "simple"
	AuthKerberos AuthMethod = "kerberos"
)

// Authentication returns hadoop.security.authentication (default simple),
// read case-insensitively as Hadoop's SecurityUtil does; any other method
// is an error, as it is in UserGroupInformation.
func (c *Conf) Authentication() (AuthMethod, error) {
	const key = "hadoop.security.authentication"
	v, _, err := c.Lookup(key)
	if err != nil {
		return "", err
	}
	switch m := AuthMethod(strings.ToLower(strings.TrimSpace(v))); m {
	case AuthSimple, AuthKerberos:
		return m, nil
	}
	return "", c.valueError(key, v, "not an authentication method (simple or kerberos)")
}

// rpcQOPs maps hadoop.rpc.protection's names to SASL's (Hadoop's
// SaslRpcServer.QualityOfProtection).
var rpcQOPs = map[string]string{
	"authentication": "auth",
	"integrity":      "auth-int",
	"privacy":        "auth-conf",
}

// RPCProtection returns hadoop.rpc.protection (default authentication) as
// SASL qualities of protection, "auth", "auth-int" or "auth-conf" (the
// values of package sasl's QOP), in the order given, which is the client's
// order of preference. As in Hadoop's SaslPropertiesResolver the list is
// comma-separated, trimmed and case-insensitive.
func (c *Conf) RPCProtection() ([]string, error) {
	const key = "hadoop.rpc.protection"
	v, _, err := c.Lookup(key)
	if err != nil {
		return nil, err
	}
	var qops []string
	for _, name := range splitList(v) {
		qop, ok := rpcQOPs[strings.ToLower(name)]
		if !ok {
			return nil, c.valueError(key, v, fmt.Sprintf("%q is not a protection (authentication, integrity or privacy)", name))
		}
		qops = append(qops, qop)
	}
	if len(qops) == 0 {
		return []string{"auth"}, nil
	}
	return qops, nil
}

// DefaultFS returns fs.defaultFS (or the deprecated fs.default.name;
// default file:///), with Hadoop's FileSystem.fixName applied: "local" is
// file:///, and a bare host:port is hdfs://host:port.
func (c *Conf) DefaultFS() (*url.URL, error) {
	const key = "fs.defaultFS"
	v, _, err := c.Lookup(key)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(v)
	switch {
	case name == "":
		return nil, c.valueError(key, v, "empty")
	case name == "local":
		name = "file:///"
	case !strings.Contains(name, "/"):
		name = "hdfs://" + name
	}
	u, perr := url.Parse(name)
	if perr != nil || u.Scheme == "" {
		return nil, c.valueError(key, v, "not a file system URI (e.g. hdfs://namenode:8020)")
	}
	return u, nil
}
