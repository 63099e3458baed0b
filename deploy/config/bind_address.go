package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"strconv"
)

// hostName is a host name: dot-separated labels of letters, digits,
// hyphens (and underscores, which real clusters' names carry), at most 253
// characters in all.
var hostName = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$`)

// bindAddress is the check on spindle.driver.bindAddress: unset, an IP
// address or a host name, and no port: the driver picks its ports.
func bindAddress(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("internal error: bind address check given %T", v)
	}
	if s == "" || len(s) <= 253 && hostName.MatchString(s) {
		return nil
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return nil
	}
	if host, port, err := net.SplitHostPort(s); err == nil && bindAddress(host) == nil && isPort(port) {
		return errors.New("want a host name or IP address without a port: the driver picks its ports")
	}
	return errors.New("want a host name or an IP address (0.0.0.0 for every interface)")
}

func isPort(s string) bool {
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}
