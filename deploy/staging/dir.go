package staging

import (
	"path"
	"strings"
)

// DefaultDir is spindle.yarn.stagingDir's default, as in Spark: the
// submitting user's directory on fs.defaultFS.
const DefaultDir = "/user/$USER/.spindle"

// StagingDir is the application's staging directory: template (DefaultDir
// when empty) with $USER and ${USER} replaced by user, then appID.
func StagingDir(template, user, appID string) string {
	return appDir(template, DefaultDir, user, appID)
}

// appDir is an application's directory under template (def when empty),
// $USER and ${USER} in it replaced by user.
func appDir(template, def, user, appID string) string {
	if template == "" {
		template = def
	}
	return path.Join(expandUser(template, user), appID)
}

// expandUser replaces ${USER} everywhere and $USER where no further name
// character follows, so that $USERNAME is left alone.
func expandUser(s, user string) string {
	s = strings.ReplaceAll(s, "${USER}", user)
	var b strings.Builder
	for {
		i := strings.Index(s, "$USER")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		rest := s[i+len("$USER"):]
		b.WriteString(s[:i])
		if rest != "" && isNameByte(rest[0]) {
			b.WriteString("$USER")
		} else {
			b.WriteString(user)
		}
		s = rest
	}
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
