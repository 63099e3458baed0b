package settings

import (
	"net/url"
	"regexp"
	"strings"
)

// The environment page (docs/ui.md) shows every setting but those that
// may hold a secret: as Spark's spark.redaction.regex, a key whose name
// matches secretKey has its value replaced by Redacted, and so does any
// value that looks like a credential whatever its key (looksSecret):
// the page, the REST API and the event log never carry it.

// Redacted stands for a value the environment page does not show.
const Redacted = "*********(redacted)"

// secretKey matches the names of keys whose values are secret, as
// Spark's redaction does: spindle.executorEnv.HF_TOKEN,
// spindle.kerberos.keytab.
var secretKey = regexp.MustCompile(`(?i)secret|password|token|key`)

// tokenPrefixes open well-known credentials: GitHub's, GitLab's, Hugging
// Face's, Slack's, OpenAI's and others' API keys, AWS access key ids, a
// JWT's header.
var tokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "hf_", "xoxb-", "xoxp-", "xoxa-", "sk-", "AKIA", "ASIA", "eyJ"}

// tokenChars are a credential's characters: hex, base64 and base64url.
var tokenChars = regexp.MustCompile(`^[A-Za-z0-9+/=_-]+$`)

// Redact is value as the environment page shows key's, and whether it
// was redacted.
func Redact(key, value string) (string, bool) {
	if value != "" && (secretKey.MatchString(key) || looksSecret(value)) {
		return Redacted, true
	}
	return value, false
}

// looksSecret says whether value holds a word that looks like a
// credential: a URL with a password in it; a word of at least 16
// characters opening as a well-known token does; or a word of at least
// 32 of a token's characters mixing letters and digits, not a path (an
// API key, a hex or base64 secret).
func looksSecret(value string) bool {
	for _, w := range strings.FieldsFunc(value, func(r rune) bool { return strings.ContainsRune(" \t\n,;\"'", r) }) {
		if u, err := url.Parse(w); err == nil && u.User != nil {
			if _, ok := u.User.Password(); ok {
				return true
			}
		}
		for _, p := range tokenPrefixes {
			if len(w) >= 16 && strings.HasPrefix(w, p) {
				return true
			}
		}
		for _, part := range strings.Split(w, "=") { // KEY=VALUE pairs too
			if len(part) >= 32 && tokenChars.MatchString(part) && !strings.HasPrefix(part, "/") && mixesLettersAndDigits(part) {
				return true
			}
		}
	}
	return false
}

func mixesLettersAndDigits(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.ContainsAny(strings.ToLower(s), "abcdefghijklmnopqrstuvwxyz")
}
