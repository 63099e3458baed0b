package config

import (
	"maps"
	"strings"
	"testing"
)

func TestExecutorEnvFamily(t *testing.T) {
	c := mustLoad(t, "spark.executorEnv.LD_LIBRARY_PATH /usr/local/cuda/lib64\nspindle.executorEnv.MODEL_DIR=/models\nspindle.executorEnv._X=")
	want := map[string]string{"LD_LIBRARY_PATH": "/usr/local/cuda/lib64", "MODEL_DIR": "/models", "_X": ""}
	if got := c.Prefixed(ExecutorEnvPrefix); !maps.Equal(got, want) {
		t.Errorf("Prefixed = %v, want %v", got, want)
	}
	// They travel with the settings (the AM reads them back from the file
	// the submitter writes of Settings).
	var keys []string
	for _, s := range c.Settings() {
		if strings.HasPrefix(s.Key, ExecutorEnvPrefix) {
			keys = append(keys, s.Key+"="+s.Value)
		}
	}
	if strings.Join(keys, " ") != "spindle.executorEnv.LD_LIBRARY_PATH=/usr/local/cuda/lib64 spindle.executorEnv.MODEL_DIR=/models spindle.executorEnv._X=" {
		t.Errorf("settings list %q", keys)
	}
}

func TestExecutorEnvFamilyRefusesWhatIsNotTheUsers(t *testing.T) {
	for key, want := range map[string]string{
		"spindle.executorEnv.CUDA_VISIBLE_DEVICES":       "reserved",
		"spark.executorEnv.NVIDIA_VISIBLE_DEVICES":       "reserved",
		"spindle.executorEnv.ROCR_VISIBLE_DEVICES":       "reserved",
		"spindle.executorEnv.SPINDLE_APP_ID":             "reserved",
		"spindle.executorEnv.HADOOP_TOKEN_FILE_LOCATION": "the NodeManager sets it",
		"spindle.executorEnv.1ABC":                       "not an environment variable name",
		"spindle.executorEnv.A-B":                        "not an environment variable name",
		"spindle.executorEnv.":                           "not an environment variable name",
	} {
		_, err := Load([]PropertiesFile{{Name: "f.conf", Text: strings.NewReader(key + " x\n")}}, nil)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "f.conf:1") {
			t.Errorf("%s: %v, want an error at f.conf:1 saying %q", key, err, want)
		}
	}
}

func TestTaskLogCapAtItsLimits(t *testing.T) {
	for value, ok := range map[string]bool{"0": true, "1024": true, "1k": true, "1023": false, "64m": true, "-1": false, "1.5k": false} {
		_, err := Load(nil, []string{"spindle.task.log.maxBytes=" + value})
		if (err == nil) != ok {
			t.Errorf("spindle.task.log.maxBytes=%s: %v, accepted want %v", value, err, ok)
		}
	}
	c := mustLoad(t, "spindle.task.log.maxBytes 3k")
	if n, _ := c.Bytes("spindle.task.log.maxBytes"); n != 3072 {
		t.Errorf("3k = %d bytes", n)
	}
}
