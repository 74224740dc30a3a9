package redact

import (
	"strings"
	"testing"
)

// Fake secrets are assembled from pieces so that this file itself does not look
// like it leaks keys to scanners.
var (
	jwt         = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ" + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	stripeLive  = "sk_" + "live_51HxYzAbCdEfGh12345678"
	stripeRLive = "rk_" + "live_51HxYzAbCdEfGh87654321"
	ghToken     = "ghp_" + strings.Repeat("a1B2", 9)
	rsaBlock    = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3P9iTgzQx5bGr0yHx1wRkYyXWT9bF0d2sKXq\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA2l0t8hZxJ3yQ\nc2VjcmV0LWtleS1tYXRlcmlhbC1mb3ItdGVzdHM=\n-----END RSA PRIVATE KEY-----"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"nothing", "x := compute(a, b)\n", "x := compute(a, b)\n", 0},
		{"aws key id", "key AKIAIOSFODNN7EXAMPLE in log", "key [REDACTED] in log", 1},
		{"aws key id assigned", "aws_access_key_id = AKIAZ52HGXYRN4WBTEST\n", "aws_access_key_id = [REDACTED]\n", 1},
		{"aws secret key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", "aws_secret_access_key = [REDACTED]\n", 1},
		{"github token", "using " + ghToken + " now", "using [REDACTED] now", 1},
		{"github fine-grained token", "export GITHUB_TOKEN=github_pat_11ABCDEFG0" + strings.Repeat("abcdEFGH1234", 7), "export GITHUB_TOKEN=[REDACTED]", 1},
		{"gitlab token", "tok: glpat-ABCdef1234567890xyzW", "tok: [REDACTED]", 1},
		{"slack token", "hook xoxb-1234567890-abcdefghij", "hook [REDACTED]", 1},
		{"slack webhook", "hook: https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx\n", "hook: [REDACTED]\n", 1},
		{"google api key", "key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "key=[REDACTED]", 1},
		{"openai project key", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz123456", "OPENAI=[REDACTED]", 1},
		{"short sk key assigned", "OPENAI_API_KEY=sk-abc123def456ghi7\n", "OPENAI_API_KEY=[REDACTED]\n", 1},
		{"short sk key bare", "calling with sk-abc123def456ghi7 now", "calling with [REDACTED] now", 1},
		{"sk key under 10 characters", "calling with sk-abc123de now", "calling with sk-abc123de now", 0},
		{"sk words without digits", "pip install sk-learn-and-numpy-together", "pip install sk-learn-and-numpy-together", 0},
		{"stripe secret key in code", `stripe.api_key = "` + stripeLive + `"`, `stripe.api_key = "[REDACTED]"`, 1},
		{"stripe key before a comma", "charge failed for key " + stripeLive + ", retrying", "charge failed for key [REDACTED], retrying", 1},
		{"stripe restricted key", "STRIPE_KEY=" + stripeRLive + "\n", "STRIPE_KEY=[REDACTED]\n", 1},
		{"postgres url password", "DATABASE_URL=postgres://app:s3cretP4ss@db.internal:5432/app\n", "DATABASE_URL=postgres://app:[REDACTED]@db.internal:5432/app\n", 1},
		{"mysql url in code", `dsn := "mysql://root:hunter2@tcp(localhost)/db"`, `dsn := "mysql://root:[REDACTED]@tcp(localhost)/db"`, 1},
		{"url password placeholder", "postgres://app:${DB_PASSWORD}@db/app", "postgres://app:${DB_PASSWORD}@db/app", 0},
		{"bearer jwt", "Authorization: Bearer " + jwt + "\n", "Authorization: Bearer [REDACTED]\n", 1},
		{"bearer opaque token", "curl -H 'Authorization: Bearer abcdef0123456789abcdef' https://x", "curl -H 'Authorization: Bearer [REDACTED]' https://x", 1},
		{"basic credentials", "Authorization: Basic dXNlcjpwYXNzd29yZA==\n", "Authorization: Basic [REDACTED]\n", 1},
		{"bare jwt", "got " + jwt + ", expired", "got [REDACTED], expired", 1},
		{"jwt in json", `{"id_token":"` + jwt + `"}`, `{"id_token":"[REDACTED]"}`, 1},
		{"password assignment", "password=hunter22\n", "password=[REDACTED]\n", 1},
		{"quoted token", `token = "abc123xyz"`, `token = "[REDACTED]"`, 1},
		{"json secret", `{"client_secret": "s3cr3tvalue", "name": "x"}`, `{"client_secret": "[REDACTED]", "name": "x"}`, 1},
		{"yaml api key", "api_key: 9f8e7d6c5b4a\n", "api_key: [REDACTED]\n", 1},
		{"env style upper", "DB_PASSWORD=correcthorse\nPORT=8080\n", "DB_PASSWORD=[REDACTED]\nPORT=8080\n", 1},
		{"properties file", "spring.datasource.password=tiger42\n", "spring.datasource.password=[REDACTED]\n", 1},
		{"passphrase with spaces", `passphrase: "correct horse battery staple"`, `passphrase: "[REDACTED]"`, 1},
		{"password in prose", "I would set password=Sup3rSecretPw9 and retry.", "I would set password=[REDACTED] and retry.", 1},
		{"two on a line", "user=bob password=pw1234 token=tk5678", "user=bob password=[REDACTED] token=[REDACTED]", 2},
		{"private key block keeps lines", "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\nb\n",
			"a\n[REDACTED]\n[REDACTED]\n[REDACTED]\n[REDACTED]\nb\n", 1},
		{"openssh key in yaml", "deploy:\n  key: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n    -----END OPENSSH PRIVATE KEY-----\n  user: ci\n",
			"deploy:\n  key: |\n    [REDACTED]\n[REDACTED]\n[REDACTED]\n  user: ci\n", 1},
		{"escaped key in json", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n", "x": 1}`,
			`{"private_key": "[REDACTED]\n", "x": 1}`, 1},
		{"key concatenated in code", "const k = \"-----BEGIN EC PRIVATE KEY-----\\n\" +\n\t\"MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49\\n\" +\n\t\"-----END EC PRIVATE KEY-----\"\n",
			"const k = \"[REDACTED]\n[REDACTED]\n[REDACTED]\"\n", 1},
		{"key cut at the start", "AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA2l0t8hZxJ3yQ\nc2VjcmV0LWtleS1tYXRlcmlhbC1mb3ItdGVzdHM=\n-----END RSA PRIVATE KEY-----\nnext line\n",
			"[REDACTED]\n[REDACTED]\n[REDACTED]\nnext line\n", 1},
		{"key cut at the end", "prev line\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3P9iTgzQx5bGr0yHx1wRkYyXWT9bF0d2sKXq\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA2l0t8hZxJ3yQ",
			"prev line\n[REDACTED]\n[REDACTED]\n[REDACTED]", 1},
		{"crlf key block keeps its line endings", "-----BEGIN PRIVATE KEY-----\r\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\r\n-----END PRIVATE KEY-----\r\nok\r\n",
			"[REDACTED]\r\n[REDACTED]\r\n[REDACTED]\r\nok\r\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Text(tt.in)
			if got != tt.want || n != tt.n {
				t.Errorf("Text(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
			}
			if strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
				t.Errorf("line count changed: %q", got)
			}
		})
	}
}

// TestRedactLeavesCode lists ordinary code (from Go's own tree, where most of
// these were once redacted) that must come out unchanged, as a file of its
// language and as text of no file (a problem pasted in, a log).
func TestRedactLeavesCode(t *testing.T) {
	tests := []struct{ name, path, in string }{
		{"call assigned to token", "main.go", "token := tokenizer.Next()\n"},
		{"type annotation", "api.ts", "password: string\n"},
		{"getenv", "config.js", `apiKey = os.Getenv("X")` + "\n"},
		{"field from a same-named variable", "scan.go", "\ts.token = token\n"},
		{"struct field from a constant", "scan.go", "\t\tmaxTokenSize: MaxScanTokenSize,\n"},
		{"case label and return", "stream.go", "\tcase token.EQL:\n\t\treturn x\n"},
		{"label constant", "prf.go", "const masterSecretLabel = \"master secret\"\n"},
		{"flag constants", "security_windows.go", "\tTOKEN_READ  = STANDARD_RIGHTS_READ | TOKEN_QUERY\n"},
		{"hex constant", "zerrors.go", "\tIPV6_TOKEN_LENGTH             = 0x40\n"},
		{"iota", "token.go", "\tILLEGAL Token = iota\n"},
		{"struct literal field", "nist.go", "\t\tprivateKey: bytes,\n"},
		{"plain variable", "gitauth.go", "\t\t\tpassword = value\n"},
		{"short variable declaration", "exec.go", "\ttokenFile := objdir + \"preferlinkext\"\n"},
		{"identifier with a number", "mlkem.go", `	"encryptionKey": "encryptionKey1024",` + "\n"},
		{"prose in a comment", "mlkem.go", "// If the encapsulation key is not valid, NewEncapsulationKey1024 returns an error.\n"},
		{"marker literals", "pem.go", "const begin = \"-----BEGIN RSA PRIVATE KEY-----\"\nconst end = \"-----END RSA PRIVATE KEY-----\"\n"},
		{"marker in a condition", "pem.go", "if strings.HasPrefix(line, \"-----BEGIN RSA PRIVATE KEY-----\") {\n\treturn parse(line)\n}\n"},
		{"comparison", "auth.py", "if token == expected:\n"},
		{"env reference", "compose.yaml", "password=${DB_PASS}\n"},
		{"bearer built in code", "client.go", `req.Header.Set("Authorization", "Bearer "+token)` + "\n"},
		{"url without password", "README.md", "see https://user@example.com/path and ssh://git@github.com:22/x\n"},
		{"working directory", "env.sh", "PWD=/home/user/src\n"},
	}
	for _, tt := range tests {
		for _, path := range []string{tt.path, ""} {
			got, _ := File(path, tt.in)
			if got != tt.in {
				t.Errorf("%s: File(%q, %q) = %q; want it unchanged (%v)", tt.name, path, tt.in, got, Find(path, tt.in))
			}
		}
	}
}

// TestRedactFileByLanguage: a plain word assigned to a password is a variable in
// code and a value in a config file.
func TestRedactFileByLanguage(t *testing.T) {
	tests := []struct{ name, path, in, want string }{
		{"go variable", "db.go", "password=correcthorse\n", "password=correcthorse\n"},
		{"env file", "app.env.example", "password=correcthorse\n", "password=[REDACTED]\n"},
		{"ini with spaces", "app.ini", "password = hunter2\n", "password = [REDACTED]\n"},
		{"quoted in go", "db.go", `password := "correcthorse"` + "\n", `password := "[REDACTED]"` + "\n"},
		{"terraform password rule", "main.tf", `administrator_login_password = "Sup3rS3cretPassw0rd!"` + "\n", `administrator_login_password = "[REDACTED]"` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := File(tt.path, tt.in); got != tt.want {
				t.Errorf("File(%q, %q) = %q; want %q", tt.path, tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactValues(t *testing.T) {
	tests := []struct {
		name, in string
		values   []string
		want     string
		n        int
	}{
		{"api key twice", "key gw-7f3a9c2e1b and gw-7f3a9c2e1b", []string{"gw-7f3a9c2e1b"}, "key [REDACTED] and [REDACTED]", 2},
		{"short values ignored", "ollama says hi", []string{"ollama"}, "ollama says hi", 0},
		{"empty values ignored", "text", []string{"", "text\n"}, "text", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Values(tt.in, tt.values...)
			if got != tt.want || n != tt.n {
				t.Errorf("Values = %q, %d; want %q, %d", got, n, tt.want, tt.n)
			}
		})
	}
}

func TestDefaultRulesLoad(t *testing.T) {
	rs := rules()
	gl := 0
	for _, d := range rs.dets {
		if d.gitleaks {
			gl++
		}
	}
	if gl < 200 {
		t.Fatalf("%d gitleaks rules compiled; the default rule set did not load", gl)
	}
}

func FuzzRedact(f *testing.F) {
	f.Add("password=abc123 AKIAIOSFODNN7EXAMPLE")
	f.Add("-----BEGIN PRIVATE KEY-----\nx\n")
	f.Add("AAAA\n-----END PRIVATE KEY-----\n")
	f.Add("postgres://u:p4ss@h/db Bearer " + jwt)
	f.Add("mysql -pS3cret --password x PGPASSWORD=y psql; sshpass -p z redis-cli -a w")
	f.Add("machine h\n login u\n password p\ndefault login a password b")
	f.Add("AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	f.Add("k: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVND\n  QktjdwoK\n")
	f.Add(`{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE\/vQ\\n-----END PRIVATE KEY-----"}`)
	f.Fuzz(func(t *testing.T, s string) {
		got, n := Text(s)
		if n == 0 && got != s {
			t.Fatalf("text changed without a redaction: %q → %q", s, got)
		}
		if strings.Count(got, "\n") != strings.Count(s, "\n") {
			t.Fatalf("line count changed: %q → %q", s, got)
		}
	})
}

// TestRedactLongLine: a minified file is one long line; detectors look at a few
// KiB around each keyword, and still find what is there.
func TestRedactLongLine(t *testing.T) {
	pad := strings.Repeat("var a=function(){return this.token_value};", 2000)
	in := pad + `apiKey:"` + stripeLive + `",password:"hunter2x",` + pad
	want := pad + `apiKey:"[REDACTED]",password:"[REDACTED]",` + pad
	if got, n := File("app.min.js", in); got != want || n != 2 {
		t.Errorf("File found %d: %v", n, Find("app.min.js", in))
	}
}

// TestRedactLongName: a long run of keywords with no break (minified or
// generated text) is checked a bounded number of bytes around each keyword
// hit; an unbounded scan of the name from each hit was quadratic (seconds for
// this line, minutes for a few hundred KiB).
func TestRedactLongName(t *testing.T) {
	for _, run := range []string{"pass", "PASSWORD_", "--db-pass"} {
		in := strings.Repeat(run, 64<<10/len(run)) + " password=hunter22\n"
		want := strings.Repeat(run, 64<<10/len(run)) + " password=[REDACTED]\n"
		if got, n := Text(in); got != want || n != 1 {
			t.Errorf("%q: %d redactions: %v", run, n, Find("", in))
		}
	}
}

// Redacting the same file again gives the same answer (it is remembered), and
// another text of the same length, or the same text under another path, is
// judged on its own.
func TestRedactionIsRememberedOnlyForTheSameText(t *testing.T) {
	secret := "ghp_" + strings.Repeat("a1B2", 9)
	body := strings.Repeat("// ordinary code line of a long enough file\n", 100)
	with := body + "token := \"" + secret + "\"\n"
	without := body + "tok := load(" + strings.Repeat("x", len(secret)-3) + ")\n" // same length, no secret
	for i := 0; i < 3; i++ {
		got, n := redactPath(with, "main.go")
		if n != 1 || strings.Contains(got, secret) {
			t.Fatalf("round %d: the secret was not redacted (%d redactions)", i, n)
		}
		if _, n := redactPath(without, "main.go"); n != 0 {
			t.Fatalf("round %d: a text without the secret got %d redactions", i, n)
		}
	}
	ss := findSpans(with, "main.go")
	ss[0].s, ss[0].e = 0, 0 // a caller changing its answer changes nothing remembered
	if got, n := redactPath(with, "main.go"); n != 1 || strings.Contains(got, secret) {
		t.Fatalf("after a caller changed its spans: %d redactions", n)
	}
	if got, n := redactPath(with, ""); n != 1 || strings.Contains(got, secret) {
		t.Fatalf("the same text without a path: %d redactions", n)
	}
}

func TestFindRulesAndOffsets(t *testing.T) {
	text := "a\npassword=hunter22\nStripe " + stripeLive + "\n"
	got := Find("", text)
	if len(got) != 2 {
		t.Fatalf("Find = %+v, want 2 findings", got)
	}
	if got[0].Rule != "assignment" || text[got[0].Start:got[0].End] != "hunter22" {
		t.Errorf("first finding %+v (%q)", got[0], text[got[0].Start:got[0].End])
	}
	if text[got[1].Start:got[1].End] != stripeLive {
		t.Errorf("second finding %+v (%q)", got[1], text[got[1].Start:got[1].End])
	}
}
