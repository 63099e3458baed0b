package settings

import (
	"fmt"
	"maps"
	"regexp"
	"strings"

	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/executor"
)

// The YARN container runtime's variables (Hadoop's
// DockerLinuxContainerRuntime): set in a container's launch context,
// they have a NodeManager with the LinuxContainerExecutor start the
// container in a Docker image (docs/yarn.md, "Executors in a Docker
// image").
const (
	EnvRuntimeType   = executor.EnvContainerRuntime
	EnvDockerImage   = "YARN_CONTAINER_RUNTIME_DOCKER_IMAGE"
	EnvDockerMounts  = "YARN_CONTAINER_RUNTIME_DOCKER_MOUNTS"
	EnvDockerNetwork = "YARN_CONTAINER_RUNTIME_DOCKER_CONTAINER_NETWORK"
)

// MaxDockerMounts bounds spindle.yarn.executor.docker.mounts: a real
// image needs a handful, and each is checked against the cluster's
// whitelist on every container start.
const MaxDockerMounts = 64

var (
	// dockerImage is the NodeManager's own check of an image name
	// (DockerLinuxContainerRuntime.DOCKER_IMAGE_PATTERN): refused here, it
	// would fail every container instead of the submission.
	dockerImage = regexp.MustCompile(`^(([a-zA-Z0-9.-]+)(:[0-9]+)?/)?([a-z0-9_./-]+)(:[a-zA-Z0-9_.-]+)?$`)
	// dockerNetwork is a Docker network's name (host, bridge, none or one
	// the cluster created).
	dockerNetwork = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)
)

// ExecutorEnv is the environment every executor container's launch
// context sets: spindle.executorEnv.*, with, when
// spindle.yarn.executor.docker.image is set, the Docker runtime's
// variables over it.
func ExecutorEnv(conf *config.Config) (map[string]string, error) {
	env := conf.Prefixed(config.ExecutorEnvPrefix)
	docker, err := ExecutorDocker(conf)
	maps.Copy(env, docker)
	return env, err
}

// ExecutorDocker is the runtime variables spindle.yarn.executor.docker.*
// ask for, checked as the NodeManager would check them; none when no
// image is set.
func ExecutorDocker(conf *config.Config) (map[string]string, error) {
	r := Read(conf)
	image := r.String("spindle.yarn.executor.docker.image")
	mounts := r.String("spindle.yarn.executor.docker.mounts")
	network := r.String("spindle.yarn.executor.docker.network")
	if r.Err() != nil {
		return nil, r.Err()
	}
	if image == "" {
		for key, v := range map[string]string{"mounts": mounts, "network": network} {
			if v != "" {
				return nil, fmt.Errorf("spindle.yarn.executor.docker.%s is set but spindle.yarn.executor.docker.image is not: the executors would run outside any image", key)
			}
		}
		return nil, nil
	}
	if !dockerImage.MatchString(image) {
		return nil, fmt.Errorf("spindle.yarn.executor.docker.image %q: not an image name YARN accepts ([registry[:port]/]name[:tag], lower-case name)", image)
	}
	env := map[string]string{EnvRuntimeType: "docker", EnvDockerImage: image}
	if mounts != "" {
		list, err := ParseDockerMounts(mounts)
		if err != nil {
			return nil, fmt.Errorf("spindle.yarn.executor.docker.mounts: %w", err)
		}
		env[EnvDockerMounts] = strings.Join(list, ",")
	}
	if network != "" {
		if !dockerNetwork.MatchString(network) {
			return nil, fmt.Errorf("spindle.yarn.executor.docker.network %q: not a Docker network name (letters, digits, '_', '.', '-')", network)
		}
		env[EnvDockerNetwork] = network
	}
	return env, nil
}

// ParseDockerMounts reads a comma-separated list of src:dst:mode mounts,
// src and dst absolute paths and mode ro or rw, as YARN's
// YARN_CONTAINER_RUNTIME_DOCKER_MOUNTS takes them; blanks around an entry
// are dropped. Errors name the entry by its position.
func ParseDockerMounts(s string) ([]string, error) {
	entries := strings.Split(s, ",")
	if len(entries) > MaxDockerMounts {
		return nil, fmt.Errorf("%d mounts: at most %d", len(entries), MaxDockerMounts)
	}
	out := make([]string, 0, len(entries))
	for i, e := range entries {
		e = strings.TrimSpace(e)
		parts := strings.Split(e, ":")
		if len(parts) != 3 {
			return nil, fmt.Errorf("mount %d %q: want src:dst:ro or src:dst:rw", i+1, e)
		}
		for _, p := range parts[:2] {
			if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\x00 \t\n") {
				return nil, fmt.Errorf("mount %d %q: %q is not an absolute path without blanks", i+1, e, p)
			}
		}
		if parts[2] != "ro" && parts[2] != "rw" {
			return nil, fmt.Errorf("mount %d %q: mode %q: want ro or rw", i+1, e, parts[2])
		}
		out = append(out, e)
	}
	return out, nil
}
