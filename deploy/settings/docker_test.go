package settings

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

func dockerConf(t *testing.T, overrides ...string) *config.Config {
	t.Helper()
	conf, err := config.LoadFiles(nil, overrides)
	if err != nil {
		t.Fatal(err)
	}
	return conf
}

// The keys become the runtime variables Hadoop's
// DockerLinuxContainerRuntime reads, over spindle.executorEnv.
func TestExecutorDockerVariables(t *testing.T) {
	conf := dockerConf(t, "spindle.yarn.executor.docker.image=registry.example.com:5000/ml/torch:2.3-cuda12",
		"spindle.yarn.executor.docker.mounts=/etc/passwd:/etc/passwd:ro, /data:/data:rw",
		"spindle.yarn.executor.docker.network=host",
		"spindle.executorEnv.LD_LIBRARY_PATH=/usr/local/cuda/lib64", "spindle.executorEnv.YARN_CONTAINER_RUNTIME_TYPE=default")
	env, err := ExecutorEnv(conf)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"LD_LIBRARY_PATH": "/usr/local/cuda/lib64",
		EnvRuntimeType:    "docker",
		EnvDockerImage:    "registry.example.com:5000/ml/torch:2.3-cuda12",
		EnvDockerMounts:   "/etc/passwd:/etc/passwd:ro,/data:/data:rw",
		EnvDockerNetwork:  "host",
	}
	if !maps.Equal(env, want) {
		t.Errorf("executor environment %v\nwant %v", env, want)
	}
	// No image: no runtime variables, spindle.executorEnv as it is.
	env, err = ExecutorEnv(dockerConf(t, "spindle.executorEnv.A=b"))
	if err != nil || !maps.Equal(env, map[string]string{"A": "b"}) {
		t.Errorf("without an image: %v, %v", env, err)
	}
}

func TestExecutorDockerRefusals(t *testing.T) {
	for _, c := range []struct {
		conf []string
		want string
	}{
		{[]string{"spindle.yarn.executor.docker.mounts=/a:/a:ro"}, "spindle.yarn.executor.docker.mounts is set but spindle.yarn.executor.docker.image is not"},
		{[]string{"spindle.yarn.executor.docker.network=host"}, "spindle.yarn.executor.docker.network is set but spindle.yarn.executor.docker.image is not"},
		{[]string{"spindle.yarn.executor.docker.image=Torch:latest"}, `spindle.yarn.executor.docker.image "Torch:latest": not an image name YARN accepts`},
		{[]string{"spindle.yarn.executor.docker.image=torch", "spindle.yarn.executor.docker.network=host;rm"}, `spindle.yarn.executor.docker.network "host;rm": not a Docker network name`},
		{[]string{"spindle.yarn.executor.docker.image=torch", "spindle.yarn.executor.docker.mounts=/a:/a:ro,/b:/b"}, `spindle.yarn.executor.docker.mounts: mount 2 "/b:/b": want src:dst:ro or src:dst:rw`},
	} {
		_, err := ExecutorDocker(dockerConf(t, c.conf...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.conf, err, c.want)
		}
	}
}

func TestParseDockerMounts(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/a:/b:ro", ""},
		{" /a:/b:rw ,/c:/d:ro", ""},
		{"", `mount 1 "": want src:dst:ro or src:dst:rw`},
		{"/a:/b:ro,", `mount 2 "": want src:dst:ro or src:dst:rw`},
		{"/a:/b:ro:x", `mount 1 "/a:/b:ro:x": want src:dst:ro or src:dst:rw`},
		{"a:/b:ro", `mount 1 "a:/b:ro": "a" is not an absolute path without blanks`},
		{"/a:b:ro", `mount 1 "/a:b:ro": "b" is not an absolute path without blanks`},
		{"/a b:/b:ro", `"/a b" is not an absolute path without blanks`},
		{"/a\x00:/b:ro", `is not an absolute path without blanks`},
		{"/a:/b:rshared", `mount 1 "/a:/b:rshared": mode "rshared": want ro or rw`},
	} {
		_, err := ParseDockerMounts(c.in)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDockerMounts(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

// MaxDockerMounts mounts are taken; one more is refused.
func TestDockerMountsLimit(t *testing.T) {
	list := func(n int) string {
		m := make([]string, n)
		for i := range m {
			m[i] = fmt.Sprintf("/m%d:/m%d:ro", i, i)
		}
		return strings.Join(m, ",")
	}
	if got, err := ParseDockerMounts(list(MaxDockerMounts)); err != nil || len(got) != MaxDockerMounts {
		t.Errorf("%d mounts: %d, %v", MaxDockerMounts, len(got), err)
	}
	if _, err := ParseDockerMounts(list(MaxDockerMounts + 1)); err == nil || err.Error() != fmt.Sprintf("%d mounts: at most %d", MaxDockerMounts+1, MaxDockerMounts) {
		t.Errorf("%d mounts: %v", MaxDockerMounts+1, err)
	}
}

// FuzzParseDockerMounts: any input is taken or refused, never a panic,
// and what is taken has every mount's three fields.
func FuzzParseDockerMounts(f *testing.F) {
	for _, s := range []string{"/a:/b:ro", " /a:/b:rw ,/c:/d:ro", "", ",", "/a:/b", "a:b:c:d", "/a:/b:ro,/c:/d:rx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		list, err := ParseDockerMounts(s)
		if err != nil {
			return
		}
		if len(list) == 0 || len(list) > MaxDockerMounts {
			t.Fatalf("%q: %d mounts", s, len(list))
		}
		for _, m := range list {
			if parts := strings.Split(m, ":"); len(parts) != 3 || strings.Contains(m, ",") {
				t.Fatalf("%q: mount %q", s, m)
			}
		}
	})
}
