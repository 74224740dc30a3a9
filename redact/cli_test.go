package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Fake secrets of the security review's cases, assembled from pieces.
var (
	awsKeyID  = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	certBlock = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQn3DxJ8pZ9yq0J2mN5iK7Xx3tW4wCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n"
)

// redactCase is a named table case: in, as the file at path ("" = text of no
// file), comes out as want.
type redactCase struct{ name, path, in, want string }

func runRedactCases(t *testing.T, tests []redactCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := File(tt.path, tt.in)
			if got != tt.want {
				t.Errorf("File(%q, %q)\n got %q\nwant %q\n(%v)", tt.path, tt.in, got, tt.want, Find(tt.path, tt.in))
			}
			if strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
				t.Errorf("line count changed: %q", got)
			}
		})
	}
}

// TestRedactCommandLinePasswords: passwords given to programs on their command
// line or in their environment.
func TestRedactCommandLinePasswords(t *testing.T) {
	runRedactCases(t, []redactCase{
		{"mysql password glued to -p", "", "mysql -pmysecretpw99", "mysql -p[REDACTED]"},
		{"mysqldump with user and database", "", "mysqldump -u root -pS3cret db > dump.sql", "mysqldump -u root -p[REDACTED] db > dump.sql"},
		{"mysql quoted password", "deploy.sh", "mysql -h db -u app -p'S3cret!' app\n", "mysql -h db -u app -p'[REDACTED]' app\n"},
		{"mariadb-dump", "", "mariadb-dump -uroot -pS3cret shop", "mariadb-dump -uroot -p[REDACTED] shop"},
		{"mysql inside a string of code", "db.go", `exec.Command("sh", "-c", "mysql -uroot -pS3cret db")` + "\n", `exec.Command("sh", "-c", "mysql -uroot -p[REDACTED] db")` + "\n"},
		{"--password= glued", "", "mysql --password=hunter mydb", "mysql --password=[REDACTED] mydb"},
		{"--password and a blank", "", "mysql --password hunter2 mydb", "mysql --password [REDACTED] mydb"},
		{"--password quoted after a blank", "", `docker login --username bob --password "S3cret pw" registry.example.com`, `docker login --username bob --password "[REDACTED]" registry.example.com`},
		{"prefixed password flag", "", "./server --db-password=S3cret --port 8080", "./server --db-password=[REDACTED] --port 8080"},
		{"PGPASSWORD in front of psql", "", "PGPASSWORD=x psql -h db -U app", "PGPASSWORD=[REDACTED] psql -h db -U app"},
		{"PGPASSWORD word in front of psql", "", "PGPASSWORD=secretpw psql -h db", "PGPASSWORD=[REDACTED] psql -h db"},
		{"exported MYSQL_PWD", "ci.sh", "export MYSQL_PWD=hunter\nmysql -u ci\n", "export MYSQL_PWD=[REDACTED]\nmysql -u ci\n"},
		{"SSHPASS for sshpass -e", "", "SSHPASS=hunter2 sshpass -e ssh host", "SSHPASS=[REDACTED] sshpass -e ssh host"},
		{"env password in a string of code", "backup.py", `os.system("PGPASSWORD=secretpw pg_dump app")` + "\n", `os.system("PGPASSWORD=[REDACTED] pg_dump app")` + "\n"},
		{"sshpass -p", "", "sshpass -p hunter2 ssh deploy@host", "sshpass -p [REDACTED] ssh deploy@host"},
		{"sshpass -p glued", "", "sshpass -phunter2 scp a host:", "sshpass -p[REDACTED] scp a host:"},
		{"redis-cli -a", "", "redis-cli -h cache -a S3cretPw ping", "redis-cli -h cache -a [REDACTED] ping"},
	})
}

// TestRedactLeavesCommandLines: the same programs and flags without a password
// in them, help text, prose, and code that builds a command.
func TestRedactLeavesCommandLines(t *testing.T) {
	for _, tt := range []struct{ name, path, in string }{
		{"mysql prompts for the password", "", "mysql -u root -p mydb\n"},
		{"mysql port", "", "mysql -h db -P 3306 -u root -p\n"},
		{"mysql password from a variable", "", `mysqldump -u root -p"$MYSQL_PASSWORD" db` + "\n"},
		{"mysql password from a braced variable", "", "mysql -uroot -p${MYSQL_ROOT_PASSWORD}\n"},
		{"mysql formatted in code", "db.py", `cmd = f"mysql -u{user} -p{password} {db}"` + "\n"},
		{"mysql_config", "", "mysql_config --libs -pthread\n"},
		{"--password metavar", "", "  --password PASSWORD   the password to log in with\n"},
		{"--password cobra help", "", "      --password string   Password for the registry\n"},
		{"--password in prose", "", "pass --password to set it, or --passwd flag.\n"},
		{"--password-stdin", "", "echo $T | docker login --password-stdin ghcr.io\n"},
		{"--password format string", "", `creds = " --username=%s --password=%s" % (user, pw)` + "\n"},
		{"code building a command", "cmd.go", `args := "--password=" + pw + " --user=" + u` + "\n"},
		{"PGPASSWORD from a variable", "", "PGPASSWORD=$DB_PASS psql -h db\n"},
		{"env password from the environment in code", "settings.py", `DB_PASSWORD=os.environ["DB_PASSWORD"]` + "\n"},
		{"keyword argument in code", "db.py", "connect(host=h, PASSWORD=password)\n"},
		{"password file variable", "compose.yaml", "POSTGRES_PASSWORD_FILE=/run/secrets/db\n"},
		{"previous working directory", "env.sh", "OLDPWD=/home/user/src\n"},
		{"ellipsis in a comment", "sshd_test_pw.c", `// LD_PRELOAD="sshd_test_pw.so" TEST_USER="..." TEST_PASSWD="..." sshd ...` + "\n"},
		{"sshpass reading a file", "", "sshpass -f ~/.pw ssh host\n"},
	} {
		for _, path := range []string{tt.path, ""} {
			if got, _ := File(path, tt.in); got != tt.in {
				t.Errorf("%s: File(%q, %q) = %q; want it unchanged (%v)", tt.name, path, tt.in, got, Find(path, tt.in))
			}
		}
	}
}

// TestRedactNetrc: .netrc entries, on one line or several; the English word
// "password" followed by another word is not one.
func TestRedactNetrc(t *testing.T) {
	runRedactCases(t, []redactCase{
		{"one line", "", "machine example.com login bob password S3cret\n", "machine example.com login bob password [REDACTED]\n"},
		{"one token a line", "", "machine example.com\n  login bob\n  password S3cret\nmachine other\n", "machine example.com\n  login bob\n  password [REDACTED]\nmachine other\n"},
		{"password before login", "", "machine example.com password S3cret login bob\n", "machine example.com password [REDACTED] login bob\n"},
		{"with port", "", "machine imap login bob port imaps password S3cret\n", "machine imap login bob port imaps password [REDACTED]\n"},
		{"default entry", "", "default login anonymous password me@example.com\n", "default login anonymous password [REDACTED]\n"},
		{"written by a CI script", "ci.yml", `    echo "machine github.com login bot password ghs0123abcd" >> ~/.netrc` + "\n", `    echo "machine github.com login bot password [REDACTED]" >> ~/.netrc` + "\n"},
		{"placeholder password", "", `machine HOSTNAME login USERID password "PASSWORD"` + "\n", `machine HOSTNAME login USERID password "PASSWORD"` + "\n"},
		{"password from a variable", "", `echo "machine github.com login bot password $GH_TOKEN" > ~/.netrc` + "\n", `echo "machine github.com login bot password $GH_TOKEN" > ~/.netrc` + "\n"},
		{"English password and a word", "", "Enter your password hunter2 when asked.\n", "Enter your password hunter2 when asked.\n"},
		{"machine in prose", "", "Each machine has a password manager; the machine password is rotated.\n", "Each machine has a password manager; the machine password is rotated.\n"},
		{"machine in code", "ssh.go", "machine := newMachine()\npassword := machine.Password()\n", "machine := newMachine()\npassword := machine.Password()\n"},
	})
}

// TestRedactAWSSecretKey: a bare AWS secret access key near its key id or its
// name.
func TestRedactAWSSecretKey(t *testing.T) {
	runRedactCases(t, []redactCase{
		{"console CSV", "credentials.csv", "User name,Password,Access key ID,Secret access key,Console login link\nbob,," + awsKeyID + "," + awsSecret + ",https://x.signin.aws.amazon.com/console\n",
			"User name,Password,Access key ID,Secret access key,Console login link\nbob,,[REDACTED],[REDACTED],https://x.signin.aws.amazon.com/console\n"},
		{"two lines of an env file", ".env", "export KEY_ID=" + awsKeyID + "\nexport KEY=" + awsSecret + "\n", "export KEY_ID=[REDACTED]\nexport KEY=[REDACTED]\n"},
		{"aws configure set", "", "aws configure set aws_secret_access_key " + awsSecret + "\n", "aws configure set aws_secret_access_key [REDACTED]\n"},
		{"SecretAccessKey in YAML", "", "SecretAccessKey:\n  " + awsSecret + "\n", "SecretAccessKey:\n  [REDACTED]\n"},
		{"unquoted in code", "deploy.py", "aws_secret_access_key=" + awsSecret + "\n", "aws_secret_access_key=[REDACTED]\n"},
		{"ASIA session key id", "", "ASIA" + "Y34FZKBOKMUTVV7A " + awsSecret + "\n", "[REDACTED] [REDACTED]\n"},
		{"far from any key id", "", "blob " + awsSecret + "\n", "blob " + awsSecret + "\n"},
		{"a git hash near a key id", "", awsKeyID + " 0123456789abcdef0123456789abcdef01234567\n", "[REDACTED] 0123456789abcdef0123456789abcdef01234567\n"},
		{"a longer token near a key id", "", awsKeyID + " " + awsSecret + "Zz09\n", "[REDACTED] " + awsSecret + "Zz09\n"},
		{"the word asia", "", "Sales in Asia: " + awsSecret + "\n", "Sales in Asia: " + awsSecret + "\n"},
	})
}

// wrap76 wraps s at 76 characters, as base64(1) does.
func wrap76(s, indent string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(indent + s[:76] + "\n")
		s = s[76:]
	}
	b.WriteString(indent + s + "\n")
	return b.String()
}

// TestRedactBase64PrivateKeys: private keys encoded in base64, and PEM blocks
// escaped in JSON.
func TestRedactBase64PrivateKeys(t *testing.T) {
	key64 := base64.StdEncoding.EncodeToString([]byte(rsaBlock + "\n"))
	cert64 := base64.StdEncoding.EncodeToString([]byte(certBlock))
	bundle64 := base64.StdEncoding.EncodeToString([]byte(certBlock + rsaBlock + "\n"))
	shifted64 := base64.StdEncoding.EncodeToString([]byte("x" + rsaBlock)) // BEGIN at byte 1
	wrapped := wrap76(key64, "  ")
	runRedactCases(t, []redactCase{
		{"kubeconfig client-key-data", "kubeconfig", "users:\n- name: admin\n  user:\n    client-certificate-data: " + cert64 + "\n    client-key-data: " + key64 + "\n",
			"users:\n- name: admin\n  user:\n    client-certificate-data: " + cert64 + "\n    client-key-data: [REDACTED]\n"},
		{"Secret tls.key in JSON", "secret.json", `{"data": {"tls.crt": "` + cert64 + `", "tls.key": "` + key64 + `"}}`, `{"data": {"tls.crt": "` + cert64 + `", "tls.key": "[REDACTED]"}}`},
		{"certificate then key in one token", "", "BUNDLE=" + bundle64 + "\n", "BUNDLE=[REDACTED]\n"},
		{"key at another byte offset", "", "blob " + shifted64 + " end\n", "blob [REDACTED] end\n"},
		{"wrapped at 76 characters", "", "tls.key: |\n" + wrapped + "next: 1\n", "tls.key: |\n  " + strings.Repeat("[REDACTED]\n", strings.Count(wrapped, "\n")) + "next: 1\n"},
		{"a certificate alone", "", "ca: " + cert64 + "\n", "ca: " + cert64 + "\n"},
		{"escaped PEM in JSON", "sa.json", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n", "client_email": "x"}`,
			`{"private_key": "[REDACTED]\n", "client_email": "x"}`},
		{"escaped PEM with escaped slashes", "sa.json", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\/hkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}`,
			`{"private_key": "[REDACTED]\n"}`},
		{"PEM escaped twice", "", `"{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkq\\nhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n\"}"`,
			`"{\"private_key\": \"[REDACTED]\\n\"}"`},
		{"escaped PEM cut off", "", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAg`, `{"private_key": "[REDACTED]`},
	})
}

// TestSkKeys: the shortest `sk-` key is a run of 10 letters and digits (skKey
// says why); key-like names made of shorter words are left alone.
func TestSkKeys(t *testing.T) {
	runRedactCases(t, []redactCase{
		{"12 characters", "", "calling with sk-abc123def456 now", "calling with [REDACTED] now"},
		{"10 characters", "", "OPENAI_API_KEY=sk-abc123def4\n", "OPENAI_API_KEY=[REDACTED]\n"},
		{"10 characters in code", "app.js", `const key = "sk-a1b2c3d4e5";` + "\n", `const key = "[REDACTED]";` + "\n"},
		{"project key", "", "sk-proj-Ab12Cd34Ef56Gh78 is set", "[REDACTED] is set"},
		{"9 characters", "", "calling with sk-abc123de now", "calling with sk-abc123de now"},
		{"OpenSSH security key", "", "sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t user\n", "sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t user\n"},
		{"OpenSSH certificate algorithm", "certs.go", `CertAlgoSKECDSA256v01 = "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com"` + "\n", `CertAlgoSKECDSA256v01 = "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com"` + "\n"},
		{"SpinKit classes", "spinner.css", ".sk-circle .sk-circle12:before, .sk-double-bounce2 { animation-delay: -1.0s; }\n", ".sk-circle .sk-circle12:before, .sk-double-bounce2 { animation-delay: -1.0s; }\n"},
		{"a provider prefix in code", "check.go", `if strings.HasPrefix(key, "sk-ant-api03-") {` + "\n", `if strings.HasPrefix(key, "sk-ant-api03-") {` + "\n"},
	})
}
