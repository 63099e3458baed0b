package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"time"

	"github.com/spindle-yarn/spindle/deploy/staging"
)

// Record is what the user's state directory keeps of a session.
type Record struct {
	ID     string `json:"id"`
	Master string `json:"master"` // "yarn", or local mode's local[N]
	Name   string `json:"name,omitempty"`
	// UI is a local session's web UI (a YARN session's is its tracking
	// URL).
	UI string `json:"ui,omitempty"`
	// Socket is the Unix socket a local session takes clients on, in its
	// directory (a YARN session's address is in its application report).
	Socket string `json:"socket,omitempty"`
	// PID is a local session's driver process; Log its log file.
	PID     int       `json:"pid,omitempty"`
	Log     string    `json:"log,omitempty"`
	Started time.Time `json:"started"`
}

// Yarn says whether the session runs on YARN.
func (r Record) Yarn() bool { return r.Master == "yarn" }

// Files of a session's directory.
const (
	secretFile = "secret"
	recordFile = "session.json"
	socketFile = "client.sock"
)

// validID is what a session id may be: a YARN application id or a local
// one, so that it is safe as a directory name.
var validID = regexp.MustCompile(`^(application_\d+_\d+|local-\d+-[0-9a-f]+)$`)

// StateDir is the user's directory of session records:
// $XDG_STATE_HOME/spindle/sessions, or ~/.local/state/spindle/sessions.
func StateDir() (string, error) {
	state, err := staging.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(state, "sessions"), nil
}

// Dir is session id's directory in the user's state directory.
func Dir(id string) (string, error) {
	if !validID.MatchString(id) {
		return "", fmt.Errorf("%q is not a session id: want the SESSION= value `spindle session start` printed (application_… or local-…)", id)
	}
	state, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(state, id), nil
}

// SocketPath is where a local session takes its clients: a Unix socket
// in its directory, which only its owner can enter.
func SocketPath(id string) (string, error) {
	dir, err := Dir(id)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, socketFile), nil
}

// Create makes session id's directory (0700) and writes its secret
// (0600) there; the directory must not exist yet.
func Create(id string, secret []byte) (string, error) {
	dir, err := Dir(id)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("session %s: %w", id, err)
	}
	if err := os.WriteFile(filepath.Join(dir, secretFile), secret, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// Save writes r as its session's record, whole or not at all.
func Save(r Record) error {
	dir, err := Dir(r.ID)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, recordFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, recordFile))
}

// ErrNoRecord is Load's error for a session this user has no record of.
var ErrNoRecord = errors.New("no record of the session")

// Load reads session id's record and secret. The secret file must be the
// user's own and private: one that others could read is refused, as ssh
// refuses a private key.
func Load(id string) (Record, []byte, error) {
	dir, err := Dir(id)
	if err != nil {
		return Record{}, nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, recordFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, nil, fmt.Errorf("session %s: %w in %s (sessions are found by the user who started them, on the machine they started them from)", id, ErrNoRecord, dir)
	}
	if err != nil {
		return Record{}, nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, nil, fmt.Errorf("%s: %w", filepath.Join(dir, recordFile), err)
	}
	if r.ID != id {
		return Record{}, nil, fmt.Errorf("%s: records session %q, not %q", filepath.Join(dir, recordFile), r.ID, id)
	}
	secret, err := readSecret(filepath.Join(dir, secretFile))
	return r, secret, err
}

// Secret reads session id's secret alone: a local session's driver has
// it before the record says where the session is.
func Secret(id string) ([]byte, error) {
	dir, err := Dir(id)
	if err != nil {
		return nil, err
	}
	return readSecret(filepath.Join(dir, secretFile))
}

// currentUID is the user a secret file must belong to: this process's.
var currentUID = os.Geteuid

func readSecret(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", path)
	case fi.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("%s can be read by others (mode %v); refusing it: anyone who reads it can use the session", path, fi.Mode().Perm())
	case !ok || int(st.Uid) != currentUID():
		return nil, fmt.Errorf("%s does not belong to this user; refusing it", path)
	case fi.Size() != 32:
		return nil, fmt.Errorf("%s holds %d bytes, not a session secret (32)", path, fi.Size())
	}
	secret := make([]byte, 32)
	if _, err := f.Read(secret); err != nil {
		return nil, err
	}
	return secret, nil
}

// Remove forgets session id.
func Remove(id string) error {
	dir, err := Dir(id)
	if err != nil {
		return err
	}
	return os.RemoveAll(dir)
}
