package yarnapp

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sirupsen/logrus"

	"github.com/spindle-yarn/spindle/am/jobspec"
	"github.com/spindle-yarn/spindle/deploy/config"
	"github.com/spindle-yarn/spindle/deploy/settings"
	"github.com/spindle-yarn/spindle/deploy/staging"
	"github.com/spindle-yarn/spindle/scheduler"
	"github.com/spindle-yarn/spindle/yarnpb/hadoopyarn"
	"github.com/spindle-yarn/spindle/yarnpb/kerberos"
	"github.com/spindle-yarn/spindle/yarnpb/yarn"
)

// App is an application to submit: a job's, or a session's.
type App struct {
	Job *jobspec.Job // nil: a session
	// SpecText is the job's spec as the user wrote it, read once; nil:
	// the job came from the command line.
	SpecText []byte
	Name     string
	// SessionSecret is a session's: its clients prove they hold it.
	SessionSecret []byte
	// Files are shipped to every container (--files), each under its
	// own name.
	Files []string
}

// Submitted is an application YARN has accepted. The caller closes it.
type Submitted struct {
	Conn   *Connection
	RM     *yarn.ApplicationClient // Conn.RM
	ID     *hadoopyarn.ApplicationIdProto
	AppID  string
	Stager *staging.Stager
	Dir    string // its staging directory
}

// Close closes the stager and the connection.
func (s *Submitted) Close() {
	s.Stager.Close()
	s.Conn.Close()
}

// Unstage removes the application's staging directory, which its AM
// removes only when it succeeds: the submitter calls it once the
// application failed or was killed. Best effort; a failure is logged.
func (s *Submitted) Unstage(ctx context.Context, log logrus.FieldLogger) {
	unstage(ctx, log, s.Stager, s.Dir)
}

// submission is one Submit under way.
type submission struct {
	conf  *config.Config
	log   logrus.FieldLogger
	app   App
	out   io.Writer // where an interrupted submission says it killed the application
	login kerberos.Login
	conn  *Connection
	// What the settings say of the application.
	acls            settings.AppACLs
	queue           string
	amMemMB         int64
	amCores         int
	stagingTemplate string
	// attempts is the submission's attempt policy: see attemptPolicy.
	attempts settings.Attempts
	tags     []string
	// What the RM said: the new application's id, and its name.
	id    *hadoopyarn.ApplicationIdProto
	appID string
}

// Submit stages what app's ApplicationMaster needs and submits it. An
// interrupt (ctx cancelled) before the submission removes the staged
// files; one during it kills the application, saying so on out.
func Submit(ctx context.Context, conf *config.Config, log logrus.FieldLogger, app App, out io.Writer) (_ *Submitted, err error) {
	login, err := settings.KerberosLogin(conf)
	if err != nil {
		return nil, err
	}
	conn, err := Connect(login)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			conn.Close()
		}
	}()
	s := &submission{conf: conf, log: log, app: app, out: out, login: login, conn: conn}
	if err := s.readSettings(); err != nil {
		return nil, err
	}
	if err := s.newApplication(ctx); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "spindle-submit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	files, err := s.amFiles(tmp)
	if err != nil {
		return nil, err
	}
	tokens, err := s.amCredentials(ctx)
	if err != nil {
		return nil, err
	}
	stager, err := staging.New(conn.Conf, conn.User, conn.Identity)
	if err != nil {
		return nil, err
	}
	dir := staging.StagingDir(s.stagingTemplate, conn.User, s.appID)
	cached, files, err := s.cachedBinary(ctx, stager, files)
	if err == nil {
		err = stageAndSubmit(ctx, s.log, stager, dir, tmp, files, cached, func(ctx context.Context, resources []*hadoopyarn.StringLocalResourceMapProto) error {
			return s.submit(ctx, resources, dir, tokens)
		})
	}
	if err != nil {
		stager.Close()
		return nil, err
	}
	return &Submitted{Conn: conn, RM: conn.RM, ID: s.id, AppID: s.appID, Stager: stager, Dir: dir}, nil
}

func (s *submission) readSettings() error {
	var err error
	if s.acls, err = settings.ACLs(s.conf, s.conn.User); err != nil {
		return err
	}
	r := settings.Read(s.conf)
	s.amMemMB = r.SizeMiB("spindle.yarn.am.memory")
	s.queue, s.amCores = r.String("spindle.yarn.queue"), r.Int("spindle.yarn.am.cores")
	s.stagingTemplate = r.String("spindle.yarn.stagingDir")
	tags := r.String("spindle.yarn.tags")
	if r.Err() != nil {
		return r.Err()
	}
	if s.attempts, err = settings.AppAttempts(s.conf, s.app.Job == nil); err != nil {
		return err
	}
	// Refused here, a bad image or mount would fail every executor.
	if _, err := settings.ExecutorDocker(s.conf); err != nil {
		return err
	}
	s.tags, err = applicationTags(tags)
	return err
}

// newApplication has the RM give the application an id, once it has
// checked the AM's and the executors' containers fit the cluster and the
// queue.
func (s *submission) newApplication(ctx context.Context) error {
	profiles, stageProfiles, err := settings.ExecutorProfiles(s.conf, s.app.Job)
	if err != nil {
		return err
	}
	newApp, err := s.conn.RM.GetNewApplication(ctx, &hadoopyarn.GetNewApplicationRequestProto{})
	if err != nil {
		return fmt.Errorf("asking the ResourceManager for an application id: %w", err)
	}
	types, err := settings.ResourceTypes(s.conf, s.app.Job)
	if err != nil {
		return err
	}
	asks := []Ask{{Role: "ApplicationMaster", MemoryMB: s.amMemMB, VCores: s.amCores}}
	for _, p := range profiles {
		ask := Ask{Role: settings.ProfileRole(p, profiles, stageProfiles, s.app.Job), MemoryMB: p.MemoryMB, VCores: p.Cores, GPUs: p.GPUs}
		for _, x := range p.Accels.List() {
			ask.Accels = append(ask.Accels, AccelAsk{Type: types[x.Name], Amount: int64(x.Amount), Key: accelKey(p.ID, x.Name, stageProfiles, s.app.Job)})
		}
		asks = append(asks, ask)
	}
	if err := Check(ctx, s.conn.RM, newApp.GetMaximumCapability(), s.queue, asks); err != nil {
		return err
	}
	place, err := settings.ContainerPlacement(s.conf, s.conn.Conf)
	if err != nil {
		return err
	}
	role := func(p scheduler.Profile) string { return settings.ProfileRole(p, profiles, stageProfiles, s.app.Job) }
	if err := checkPlacement(ctx, place.Constraints, place.NodeLabel, profiles, role, s.conn.Conf, s.log); err != nil {
		return err
	}
	s.id = newApp.GetApplicationId()
	s.appID = yarn.ApplicationID(s.id)
	s.log = s.log.WithField("app", s.appID)
	return nil
}

// cachedBinary is this binary from the user's cache, uploaded there once
// per build; when the cache cannot serve, it is staged with the
// application's files instead.
func (s *submission) cachedBinary(ctx context.Context, stager *staging.Stager, files []staging.File) (*hadoopyarn.StringLocalResourceMapProto, []staging.File, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	binary := staging.File{Local: self, Name: "spindle", Executable: true}
	cacheDir := staging.CacheDir(s.stagingTemplate, s.conn.User)
	cached, uploaded, err := stager.Cached(ctx, cacheDir, binary)
	switch {
	case err != nil:
		s.log.WithError(err).Warn("the binary cache cannot serve: staging the binary with the application")
		files = append(files, binary)
	case uploaded:
		s.log.WithFields(logrus.Fields{"dir": cacheDir, "bytes": cached.GetValue().GetSize()}).Info("uploaded the binary to the cache")
	default:
		s.log.WithFields(logrus.Fields{"dir": cacheDir, "bytes": cached.GetValue().GetSize()}).Info("reusing the cached binary")
	}
	return cached, files, nil
}

// shippedAs is the name a --files file is staged under: a prefix keeps it
// from shadowing the AM's own files; executors see it under its own
// name.
func shippedAs(local string) string { return "files." + filepath.Base(local) }

// accelKey names what asks profile p's executors for accelerator name,
// for messages: the resources of the first of its stages that names it
// (resources: {fpga: 2}), else the executors' key.
func accelKey(p scheduler.ProfileID, name string, stageProfiles []scheduler.ProfileID, job *jobspec.Job) string {
	for i, sp := range stageProfiles {
		if st := job.Stages[i]; sp == p && st.Accels[name] > 0 {
			return fmt.Sprintf("stage %q: resources.%s", st.Name, name)
		}
	}
	return "spindle.executor.resource." + name + ".amount"
}
