package appmaster

import (
	"errors"
	"os"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// bindHost is where the ApplicationMaster listens, for its executors and
// for its tracking page: spindle.driver.bindAddress, or else the host it
// advertises to them (NM_HOST), so that its ports are open on the network
// they reach it by and not on every interface of the node.
func bindHost(conf *config.Config) (string, error) {
	bind, err := conf.String("spindle.driver.bindAddress")
	if err != nil || bind != "" {
		return bind, err
	}
	host, _ := os.LookupEnv("NM_HOST")
	if host == "" {
		return "", errors.New("NM_HOST is not set: the ApplicationMaster does not know the address to advertise and listen on")
	}
	return host, nil
}
