package appmaster

import (
	"testing"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// The ApplicationMaster listens on the host it advertises, unless
// spindle.driver.bindAddress (or Spark's spelling) says otherwise.
func TestAMBindHost(t *testing.T) {
	t.Setenv("NM_HOST", "node7.example.com")
	for _, tc := range []struct {
		conf []string
		want string
	}{
		{nil, "node7.example.com"},
		{[]string{"spark.driver.bindAddress=0.0.0.0"}, "0.0.0.0"},
		{[]string{"spindle.driver.bindAddress=10.1.2.3"}, "10.1.2.3"},
	} {
		conf, err := config.Load(nil, tc.conf)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := bindHost(conf); got != tc.want || err != nil {
			t.Errorf("%v: %q, %v; want %q", tc.conf, got, err, tc.want)
		}
	}

	t.Setenv("NM_HOST", "")
	conf, err := config.Load(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := bindHost(conf); err == nil {
		t.Errorf("without NM_HOST: %q, want an error", got)
	}
}
