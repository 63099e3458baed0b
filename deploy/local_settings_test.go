package deploy

import (
	"strings"
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

func TestLocalModeRefusesOnlyYarnSettingsASourceSet(t *testing.T) {
	load := func(file string, overrides []string, flags ...config.Flag) *config.Config {
		t.Helper()
		conf, err := config.Load([]config.PropertiesFile{{Name: "my.conf", Text: strings.NewReader(file)}}, overrides, flags...)
		if err != nil {
			t.Fatal(err)
		}
		return conf
	}
	for _, c := range []struct {
		conf *config.Config
		want string
	}{
		{load("", nil), ""},
		{load("spindle.dynamicAllocation.enabled false", nil), ""},
		{load("", nil, config.Flag{Name: "--num-executors", Key: "spindle.executor.instances", Value: "5"}),
			"--num-executors 5: in local mode --master local[N] sets the executor count: use --master 'local[5]'"},
		{load("spark.executor.instances 2", nil),
			`my.conf:1: spark.executor.instances (spindle.executor.instances)="2": in local mode --master local[N] sets the executor count: use --master 'local[2]'`},
		{load("", []string{"spindle.dynamicAllocation.enabled=true"}),
			`--conf: spindle.dynamicAllocation.enabled="true": dynamic allocation runs on YARN (--master yarn); local mode keeps its local[N] executors throughout`},
		{load("spindle.dynamicAllocation.enabled false\nspindle.dynamicAllocation.maxExecutors 4", nil),
			`my.conf:2: spindle.dynamicAllocation.maxExecutors="4": dynamic allocation runs on YARN`},
	} {
		err := refuseYarnOnlySettings(c.conf)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

func TestSubmitRefusesNumExecutorsInLocalMode(t *testing.T) {
	_, _, err := runSplit("submit", "--master", "local[2]", "--num-executors", "3", spec(t, oneTask))
	if err == nil || !strings.Contains(err.Error(), "--num-executors 3: in local mode --master local[N] sets the executor count") {
		t.Errorf("err = %v", err)
	}
}
