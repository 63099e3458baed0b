package deploy

import (
	"bytes"
	"flag"
	"regexp"
	"testing"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/spindle-yarn/spindle/deploy/config"
)

// The level a command logs at: spindle.log.level (info unless set), or
// warnings only for a quiet command unless the level was set; --verbose
// is debug over both. Lines carry a timestamp, the level and the fields.
func TestLoggerLevel(t *testing.T) {
	for _, c := range []struct {
		name    string
		conf    []string
		quiet   bool
		verbose bool
		want    logrus.Level
	}{
		{"default", nil, false, false, logrus.InfoLevel},
		{"set", []string{"spindle.log.level=warn"}, false, false, logrus.WarnLevel},
		{"quiet", nil, true, false, logrus.WarnLevel},
		{"quiet but set", []string{"spindle.log.level=info"}, true, false, logrus.InfoLevel},
		{"verbose", []string{"spindle.log.level=error"}, true, true, logrus.DebugLevel},
	} {
		conf, err := config.Load(nil, c.conf)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		fs := flag.NewFlagSet("spindle", flag.ContinueOnError)
		fs.Bool("verbose", c.verbose, "")
		log, err := logger(cli.NewContext(&cli.App{ErrWriter: &out}, fs, nil), conf, c.quiet)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if log.GetLevel() != c.want {
			t.Errorf("%s: level %v, want %v", c.name, log.GetLevel(), c.want)
		}
		log.WithField("app", "application_1_0001").Error("it ended")
		want := `^time="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\S*" level=error msg="it ended" app=application_1_0001` + "\n$"
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("%s: logged %q, want a line matching %s", c.name, out.String(), want)
		}
	}
	if _, err := config.Load(nil, []string{"spindle.log.level=loud"}); err == nil {
		t.Error("spindle.log.level=loud is accepted")
	}
}
