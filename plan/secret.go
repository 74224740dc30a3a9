package plan

import "strings"

// The one list of secret files: the read path refuses to show them to the
// model (projfs) and the write path refuses to change them (apply), so a
// change's preview never quotes a secret file the model could not read.

// secretSuffixes, secretPrefixes and secretNames classify secret file names
// (lower-cased).
var (
	secretSuffixes = []string{".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"}
	secretPrefixes = []string{".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}
	secretNames    = []string{"credentials", "credentials.json", "credentials.yaml", "credentials.yml",
		"credentials.toml", "credentials.ini", "credentials.xml", "credentials.csv", ".netrc", ".pgpass", ".htpasswd",
		"secret.json", "secrets.json", "secret.yaml", "secrets.yaml", "secret.yml", "secrets.yml", "secret.toml", "secrets.toml"}
)

// isSecretName reports whether a base name is a secret file's.
func isSecretName(b string) bool {
	b = strings.ToLower(b)
	for _, n := range secretNames {
		if b == n {
			return true
		}
	}
	for _, s := range secretSuffixes {
		if strings.HasSuffix(b, s) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

// IsSecretPath reports whether rel (slash-separated, relative to the root)
// names a secret file: .env*, *.pem, *.key, *.p12, *.pfx, *.jks, id_rsa* and
// the other SSH keys, credentials files, .netrc, .pgpass, .htpasswd,
// secrets.json and the like, or anything under a secrets/ or .ssh/ folder.
func IsSecretPath(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, c := range parts[:len(parts)-1] {
		if strings.EqualFold(c, "secrets") || strings.EqualFold(c, ".ssh") {
			return true
		}
	}
	return isSecretName(parts[len(parts)-1])
}
