package hadoopconf

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// RMService is one of the ResourceManager's endpoints, named by the key
// that holds its address.
type RMService string

// The ResourceManager's endpoints (YarnConfiguration's RM_*_ADDRESS).
const (
	// RMAddress serves ApplicationClientProtocol: submit, status, kill.
	RMAddress RMService = "yarn.resourcemanager.address"
	// RMSchedulerAddress serves ApplicationMasterProtocol: register,
	// allocate, finish.
	RMSchedulerAddress       RMService = "yarn.resourcemanager.scheduler.address"
	RMResourceTrackerAddress RMService = "yarn.resourcemanager.resource-tracker.address"
	RMAdminAddress           RMService = "yarn.resourcemanager.admin.address"
	RMWebappAddress          RMService = "yarn.resourcemanager.webapp.address"
	RMWebappHTTPSAddress     RMService = "yarn.resourcemanager.webapp.https.address"
)

// rmDefaultPorts is YarnConfiguration.getRMDefaultPortNumber.
var rmDefaultPorts = map[RMService]int{
	RMAddress:                8032,
	RMSchedulerAddress:       8030,
	RMResourceTrackerAddress: 8031,
	RMAdminAddress:           8033,
	RMWebappAddress:          8088,
	RMWebappHTTPSAddress:     8090,
}

// DefaultPort is the port an address of s gets when its value names only
// a host.
func (s RMService) DefaultPort() int { return rmDefaultPorts[s] }

const (
	keyRMHostname  = "yarn.resourcemanager.hostname"
	keyRMHAEnabled = "yarn.resourcemanager.ha.enabled"
	keyRMHAIDs     = "yarn.resourcemanager.ha.rm-ids"
)

// RMEndpoint is one ResourceManager's address for a service.
type RMEndpoint struct {
	// ID is the rm-id under HA, "" without HA.
	ID string
	// Address is host:port.
	Address string
	// Key is the key the address was derived from, for messages.
	Key string
}

// RMHAEnabled reports yarn.resourcemanager.ha.enabled.
func (c *Conf) RMHAEnabled() (bool, error) {
	return c.GetBool(keyRMHAEnabled, false)
}

// RMAddresses returns the addresses of service s, in the order a client
// tries them on failover.
//
// Without HA it is one address, as YarnConfiguration.getSocketAddr
// derives it: the service's key, whose yarn-default.xml value is
// ${yarn.resourcemanager.hostname}:<default port>, hostname 0.0.0.0.
//
// With yarn.resourcemanager.ha.enabled it is one address per id of
// yarn.resourcemanager.ha.rm-ids, in that order, as HAUtil derives them:
// <service key>.<id> if set, else yarn.resourcemanager.hostname.<id> with
// the service's default port, else an error naming both keys. The ids are
// trimmed and deduplicated (the ResourceManager itself reads them so).
//
// An address that names only a host gets the service's default port; one
// with a scheme (http://host:port) is read as NetUtils.createSocketAddr
// reads it.
func (c *Conf) RMAddresses(s RMService) ([]RMEndpoint, error) {
	port, ok := rmDefaultPorts[s]
	if !ok {
		return nil, fmt.Errorf("hadoopconf: %q is not a ResourceManager address key", string(s))
	}
	ha, err := c.RMHAEnabled()
	if err != nil {
		return nil, err
	}
	if !ha {
		addr, err := c.address(string(s), port)
		if err != nil {
			return nil, err
		}
		return []RMEndpoint{{Address: addr, Key: string(s)}}, nil
	}
	ids, err := c.rmHAIDs()
	if err != nil {
		return nil, err
	}
	eps := make([]RMEndpoint, 0, len(ids))
	for _, id := range ids {
		key := string(s) + "." + id
		var addr string
		if _, set := c.Raw(key); set {
			addr, err = c.address(key, port)
		} else {
			key = keyRMHostname + "." + id
			addr, err = c.haHost(key, string(s)+"."+id, port)
		}
		if err != nil {
			return nil, err
		}
		eps = append(eps, RMEndpoint{ID: id, Address: addr, Key: key})
	}
	return eps, nil
}

// rmHAIDs returns yarn.resourcemanager.ha.rm-ids, which HA needs.
func (c *Conf) rmHAIDs() ([]string, error) {
	list, err := c.GetStrings(keyRMHAIDs)
	if err != nil {
		return nil, err
	}
	var ids []string
	seen := map[string]bool{}
	for _, id := range list {
		if strings.HasPrefix(id, ".") {
			raw, _ := c.Raw(keyRMHAIDs)
			return nil, c.valueError(keyRMHAIDs, raw, fmt.Sprintf("rm-id %q starts with '.'", id))
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("hadoopconf: %s is true but %s names no ResourceManager", keyRMHAEnabled, keyRMHAIDs)
	}
	return ids, nil
}

// address reads key as host[:port], giving a bare host defPort.
func (c *Conf) address(key string, defPort int) (string, error) {
	v, _, err := c.Lookup(key)
	if err != nil {
		return "", err
	}
	host, port, err := splitAddress(strings.TrimSpace(v))
	if err != nil {
		return "", c.valueError(key, v, err.Error())
	}
	if port == "" {
		port = strconv.Itoa(defPort)
	}
	return net.JoinHostPort(host, port), nil
}

// haHost reads yarn.resourcemanager.hostname.<id>, which names a host
// only, for an id whose addrKey is unset.
func (c *Conf) haHost(key, addrKey string, port int) (string, error) {
	v, set, err := c.Lookup(key)
	if err != nil {
		return "", err
	}
	if !set {
		return "", fmt.Errorf("hadoopconf: %s or %s needs to be set in an HA configuration (%s lists the id)", key, addrKey, keyRMHAIDs)
	}
	host, p, err := splitAddress(strings.TrimSpace(v))
	if err == nil && p != "" {
		err = errors.New("a hostname takes no port; set " + addrKey + " for one")
	}
	if err != nil {
		return "", c.valueError(key, v, err.Error())
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// splitAddress reads [scheme://]host[:port] as Hadoop's
// NetUtils.createSocketAddr does: a path only after a scheme, a host
// always, the port optional.
func splitAddress(s string) (host, port string, err error) {
	hasScheme := strings.Contains(s, "://")
	target := s
	if !hasScheme {
		target = "dummyscheme://" + s
	}
	u, perr := url.Parse(target)
	if perr != nil || u.Hostname() == "" || (!hasScheme && u.Path != "") {
		return "", "", errors.New("not a host:port address")
	}
	port = u.Port()
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			return "", "", errors.New("port out of range")
		}
	}
	return u.Hostname(), port, nil
}
