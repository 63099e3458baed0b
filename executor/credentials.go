package executor

import (
	"bytes"

	"github.com/spindle-yarn/spindle/yarnpb/credentials"
)

// updateCredentials replaces the tasks' credentials file with file, the
// fresh tokens the driver sent. The file is rewritten atomically, so a
// task starting meanwhile reads the old tokens or the new, never a mix.
// What cannot be used is logged and dropped: the old tokens still serve
// until they expire, and the driver will send again.
func (e *executor) updateCredentials(file []byte) {
	log := e.cfg.Log.WithField("file", e.cfg.TokenFile)
	if e.cfg.TokenFile == "" {
		log.Warn("fresh tokens from the driver, but this executor has no credentials file: dropped")
		return
	}
	creds, err := credentials.Read(bytes.NewReader(file))
	if err != nil {
		log.WithError(err).Error("the driver's fresh tokens do not read as a credentials file: dropped")
		return
	}
	// Tasks read this file: it must never carry a secret, whoever sent it.
	if len(creds.Secrets) > 0 {
		log.WithField("secrets", len(creds.Secrets)).Error("the driver's fresh tokens come with secrets, which tasks must not see: dropped")
		return
	}
	if err := creds.WriteFile(e.cfg.TokenFile, credentials.DefaultVersion); err != nil {
		log.WithError(err).Error("writing the fresh tokens")
		return
	}
	log.WithField("tokens", len(creds.Tokens)).Info("replaced the tasks' delegation tokens")
}
