package redact

import (
	"strings"
	"testing"
)

// wpSalt is a key of wp-config.php as WordPress's generator makes them: 64
// printable characters, quotes and backslashes excepted (assembled from pieces).
var (
	wpSalt  = "x>1Xy8ptsPf7`Gp^e%VGz5B]3|<(JQ+Cf!q^" + "G7#H0e@mJ+ZM#}XbV-E$+I~t1N;h/,k@9sPq"
	wpSalt2 = "<k$Lw)" + `"u8:J0S5 3g]X*z{q!D|uR@Y` + "f+e2t&M^c9a-~Wn7.K=b/H%h?G4o_V[B1j}Zr"
)

// TestRedactPasswordForms: a secret-named key bound to a literal, in the syntaxes
// of ordinary config and code (issue 22, class 5). The value goes; the key and
// the structure around it stay, so the model still reads the code.
func TestRedactPasswordForms(t *testing.T) {
	wp := "define( 'DB_NAME', 'wordpress' );\n" +
		"define( 'DB_USER', 'wp_admin' );\n" +
		"define( 'DB_PASSWORD', 'Xk9#mQ2vLp' );\n" +
		"define( 'DB_HOST', 'localhost' );\n" +
		"define('AUTH_KEY',         '" + wpSalt + "');\n" +
		"define('SECURE_AUTH_KEY',  '" + wpSalt2 + "');\n" +
		"define('LOGGED_IN_KEY',    '" + wpSalt + "');\n" +
		"define('NONCE_KEY',        '" + wpSalt2 + "');\n" +
		"define('AUTH_SALT',        '" + wpSalt + "');\n" +
		"define('SECURE_AUTH_SALT', '" + wpSalt2 + "');\n" +
		"define('LOGGED_IN_SALT',   '" + wpSalt + "');\n" +
		"define('NONCE_SALT',       '" + wpSalt2 + "');\n" +
		"$table_prefix = 'wp_';\n"
	wpWant := "define( 'DB_NAME', 'wordpress' );\n" +
		"define( 'DB_USER', 'wp_admin' );\n" +
		"define( 'DB_PASSWORD', '[REDACTED]' );\n" +
		"define( 'DB_HOST', 'localhost' );\n" +
		"define('AUTH_KEY',         '[REDACTED]');\n" +
		"define('SECURE_AUTH_KEY',  '[REDACTED]');\n" +
		"define('LOGGED_IN_KEY',    '[REDACTED]');\n" +
		"define('NONCE_KEY',        '[REDACTED]');\n" +
		"define('AUTH_SALT',        '[REDACTED]');\n" +
		"define('SECURE_AUTH_SALT', '[REDACTED]');\n" +
		"define('LOGGED_IN_SALT',   '[REDACTED]');\n" +
		"define('NONCE_SALT',       '[REDACTED]');\n" +
		"$table_prefix = 'wp_';\n"
	cases := []redactCase{
		// constant definitions and key-value calls: ("secret-name", "literal")
		{"wp-config.php", "wp-config.php", wp, wpWant},
		{"php define with double quotes", "config.php", `define("MAIL_PASSWORD", "Tiger42x");` + "\n", `define("MAIL_PASSWORD", "[REDACTED]");` + "\n"},
		{"C #define", "config.h", "#define DB_PASSWORD \"Tiger42x\"\n", "#define DB_PASSWORD \"[REDACTED]\"\n"},
		{"java system property", "Tls.java", `System.setProperty("javax.net.ssl.keyStorePassword", "Tiger42x");` + "\n", `System.setProperty("javax.net.ssl.keyStorePassword", "[REDACTED]");` + "\n"},
		{"java properties put", "Mail.java", `props.put("mail.smtp.password", "Tiger42x");` + "\n", `props.put("mail.smtp.password", "[REDACTED]");` + "\n"},
		{"go header", "client.go", `req.Header.Set("X-Api-Key", "Tiger42xAbc")` + "\n", `req.Header.Set("X-Api-Key", "[REDACTED]")` + "\n"},
		{"go viper default", "config.go", `viper.SetDefault("database.password", "Tiger42x")` + "\n", `viper.SetDefault("database.password", "[REDACTED]")` + "\n"},
		{"python getenv default", "settings.py", `SECRET_KEY = os.getenv("SECRET_KEY", "dev-Tiger42x-key")` + "\n", `SECRET_KEY = os.getenv("SECRET_KEY", "[REDACTED]")` + "\n"},
		{"laravel env default", "config/database.php", "'password' => env('DB_PASSWORD', 'Tiger42x'),\n", "'password' => env('DB_PASSWORD', '[REDACTED]'),\n"},
		{"ruby fetch default", "config/app.rb", `token = ENV.fetch("API_TOKEN", "Tiger42xAbc")` + "\n", `token = ENV.fetch("API_TOKEN", "[REDACTED]")` + "\n"},
		{"java map of pairs", "Creds.java", `Map.of("user", "app", "password", "Tiger42x")` + "\n", `Map.of("user", "app", "password", "[REDACTED]")` + "\n"},
		{"java property default", "Db.java", `String pw = props.getProperty("db.password", "Tiger42x");` + "\n", `String pw = props.getProperty("db.password", "[REDACTED]");` + "\n"},
		{"android extra", "Login.kt", `intent.putExtra("password", "Tiger42x")` + "\n", `intent.putExtra("password", "[REDACTED]")` + "\n"},
		{"python environ setdefault", "manage.py", `os.environ.setdefault("DB_PASSWORD", "Tiger42x")` + "\n", `os.environ.setdefault("DB_PASSWORD", "[REDACTED]")` + "\n"},
		{"psr-7 header", "Client.php", "$request = $request->withHeader('X-Api-Key', 'Tiger42xAbc');\n", "$request = $request->withHeader('X-Api-Key', '[REDACTED]');\n"},
		{"local storage", "docs/auth.md", "localStorage.setItem('token', 'jwt_abc123');\n", "localStorage.setItem('token', '[REDACTED]');\n"},

		// setters and builders
		{"java setter", "Db.java", "config.setUsername(\"app\");\nconfig.setPassword(\"Tiger42x!\");\n", "config.setUsername(\"app\");\nconfig.setPassword(\"[REDACTED]\");\n"},
		{"java char array", "Keys.java", `ks.load(in, setPassword("Tiger42x".toCharArray()));` + "\n", `ks.load(in, setPassword("[REDACTED]".toCharArray()));` + "\n"},
		{"testcontainers builder", "ItTest.java", `new PostgreSQLContainer<>("postgres:16").withUsername("app").withPassword("Tiger42x")` + "\n", `new PostgreSQLContainer<>("postgres:16").withUsername("app").withPassword("[REDACTED]")` + "\n"},
		{"spring security builder", "Security.java", `User.withUsername("admin").password("{noop}Tiger42x").roles("ADMIN")` + "\n", `User.withUsername("admin").password("[REDACTED]").roles("ADMIN")` + "\n"},
		{"python set_password", "seed.py", "user.set_password('Tiger42x')\n", "user.set_password('[REDACTED]')\n"},
		{"python keyring", "store.py", `keyring.set_password("myapp", "alice", "Tiger42x")` + "\n", `keyring.set_password("myapp", "alice", "[REDACTED]")` + "\n"},
		{"go setter", "db.go", `cfg.SetPassword("Tiger42x")` + "\n", `cfg.SetPassword("[REDACTED]")` + "\n"},
		{"js token setter", "api.js", `client.setAccessToken('Tiger42xAbc99');` + "\n", `client.setAccessToken('[REDACTED]');` + "\n"},
		{"kotlin api key builder", "Client.kt", `Client.builder().apiKey("Tiger42xAbc99").build()` + "\n", `Client.builder().apiKey("[REDACTED]").build()` + "\n"},
		{"go url user", "client.go", `u.User = url.UserPassword("deploy", "Tiger42x")` + "\n", `u.User = url.UserPassword("deploy", "[REDACTED]")` + "\n"},

		// credentials made from a user name and a password
		{"C# network credential", "Mail.cs", `client.Credentials = new NetworkCredential("mailer", "Tiger42x", "CORP");` + "\n", `client.Credentials = new NetworkCredential("mailer", "[REDACTED]", "CORP");` + "\n"},
		{"python requests basic auth", "api.py", `r = requests.get(url, auth=HTTPBasicAuth('bot', 'Tiger42x'))` + "\n", `r = requests.get(url, auth=HTTPBasicAuth('bot', '[REDACTED]'))` + "\n"},
		{"go basic auth", "client.go", `req.SetBasicAuth(user, "Tiger42x")` + "\n", `req.SetBasicAuth(user, "[REDACTED]")` + "\n"},
		{"go smtp plain auth", "mail.go", `auth := smtp.PlainAuth("", "bot@example.com", "Tiger42x", host)` + "\n", `auth := smtp.PlainAuth("", "bot@example.com", "[REDACTED]", host)` + "\n"},
		{"java httpclient credentials", "Http.java", `new UsernamePasswordCredentials("bot", "Tiger42x")` + "\n", `new UsernamePasswordCredentials("bot", "[REDACTED]")` + "\n"},
		{"jdbc driver manager", "Db.java", `Connection c = DriverManager.getConnection("jdbc:postgresql://db/app", "app", "Tiger42x");` + "\n", `Connection c = DriverManager.getConnection("jdbc:postgresql://db/app", "app", "[REDACTED]");` + "\n"},
		{"php mysqli_connect", "db.php", "$link = mysqli_connect('localhost', 'app', 'Tiger42x', 'shop');\n", "$link = mysqli_connect('localhost', 'app', '[REDACTED]', 'shop');\n"},
		{"php pdo", "db.php", "$pdo = new PDO('mysql:host=db;dbname=shop', 'app', 'Tiger42x');\n", "$pdo = new PDO('mysql:host=db;dbname=shop', 'app', '[REDACTED]');\n"},
		{"python smtp login", "mail.py", "server.login('bot@example.com', 'Tiger42x')\n", "server.login('bot@example.com', '[REDACTED]')\n"},
		{"php ftp_login", "ftp.php", "ftp_login($conn, 'deploy', 'Tiger42x');\n", "ftp_login($conn, 'deploy', '[REDACTED]');\n"},

		// config directives separated by blanks
		// a commented default is still a literal in the file, and examples are
		// redacted like real values (AWS' EXAMPLE keys, `password=hunter2` in a
		// comment); only placeholders stay (`# masterauth <master-password>`)
		{"redis.conf", "redis.conf", "# requirepass foobared\nrequirepass Tiger42x\nmasterauth Tiger42x\nport 6379\n", "# requirepass [REDACTED]\nrequirepass [REDACTED]\nmasterauth [REDACTED]\nport 6379\n"},
		{"redis.conf as text", "", "requirepass \"Tiger 42x\"\n", "requirepass \"[REDACTED]\"\n"},
		{"sentinel.conf", "sentinel.conf", "sentinel monitor mymaster 10.0.0.5 6379 2\nsentinel auth-pass mymaster Tiger42x\n", "sentinel monitor mymaster 10.0.0.5 6379 2\nsentinel auth-pass mymaster [REDACTED]\n"},
		{"redis ACL user", "users.acl", "user worker on >Tiger42x ~jobs:* +@list\n", "user worker on >[REDACTED] ~jobs:* +@list\n"},
		{"keepalived", "keepalived.conf", "    authentication {\n        auth_type PASS\n        auth_pass 4f2a9c\n    }\n", "    authentication {\n        auth_type PASS\n        auth_pass [REDACTED]\n    }\n"},
		{"slapd rootpw", "slapd.conf", "rootdn \"cn=admin,dc=example,dc=com\"\nrootpw {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n", "rootdn \"cn=admin,dc=example,dc=com\"\nrootpw [REDACTED]\n"},
		{"nslcd bindpw", "nslcd.conf", "binddn cn=nslcd,dc=example,dc=com\nbindpw Tiger42x\n", "binddn cn=nslcd,dc=example,dc=com\nbindpw [REDACTED]\n"},
		{"msmtprc", ".msmtprc", "account default\nuser bob\npassword Tiger42x\n", "account default\nuser bob\npassword [REDACTED]\n"},
		{"apache ldap bind", "httpd.conf", "AuthLDAPBindDN cn=www,dc=example\nAuthLDAPBindPassword Tiger42x\n", "AuthLDAPBindDN cn=www,dc=example\nAuthLDAPBindPassword [REDACTED]\n"},
		{"mosquitto bridge", "mosquitto.conf", "remote_username bridge\nremote_password Tiger42x\n", "remote_username bridge\nremote_password [REDACTED]\n"},
		{"bind tsig secret", "named.conf", "key \"rndc-key\" {\n\talgorithm hmac-sha256;\n\tsecret \"c2VjcmV0a2V5MTIzNDU2Nzg=\";\n};\n", "key \"rndc-key\" {\n\talgorithm hmac-sha256;\n\tsecret \"[REDACTED]\";\n};\n"},
		{"fetchmailrc", ".fetchmailrc", "poll mail.example.com protocol imap user \"bob\" password \"Tiger42x\"\n", "poll mail.example.com protocol imap user \"bob\" password \"[REDACTED]\"\n"},
		{"dockerfile legacy ENV", "Dockerfile", "ENV DB_PASSWORD Tiger42x\n", "ENV DB_PASSWORD [REDACTED]\n"},
		{"apache SetEnv", ".htaccess", "SetEnv DB_PASSWORD Tiger42x\n", "SetEnv DB_PASSWORD [REDACTED]\n"},
		{"cisco enable secret", "router.cfg", "enable secret Tiger42x\n", "enable secret [REDACTED]\n"},

		// SQL
		{"postgres create user", "V1__users.sql", "CREATE USER app WITH PASSWORD 'Tiger42x';\n", "CREATE USER app WITH PASSWORD '[REDACTED]';\n"},
		{"postgres role encrypted", "V2__roles.sql", "CREATE ROLE reporting LOGIN ENCRYPTED PASSWORD 'Tiger42x' VALID UNTIL '2030-01-01';\n", "CREATE ROLE reporting LOGIN ENCRYPTED PASSWORD '[REDACTED]' VALID UNTIL '2030-01-01';\n"},
		{"mysql identified by", "init.sql", "CREATE USER 'app'@'%' IDENTIFIED BY 'Tiger42x';\n", "CREATE USER 'app'@'%' IDENTIFIED BY '[REDACTED]';\n"},
		{"mysql grant identified by", "init.sql", "GRANT ALL ON app.* TO 'app'@'%' IDENTIFIED BY \"Tiger42x\";\n", "GRANT ALL ON app.* TO 'app'@'%' IDENTIFIED BY \"[REDACTED]\";\n"},
		{"mysql identified with plugin", "init.sql", "ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY 'Tiger42x';\n", "ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY '[REDACTED]';\n"},
		{"identified by on the next line", "init.sql", "CREATE USER 'app'@'%'\n  IDENTIFIED BY 'Tiger42x';\n", "CREATE USER 'app'@'%'\n  IDENTIFIED BY '[REDACTED]';\n"},
		{"mysql set password", "init.sql", "SET PASSWORD FOR 'app'@'localhost' = 'Tiger42x';\n", "SET PASSWORD FOR 'app'@'localhost' = '[REDACTED]';\n"},
		{"mysql password function", "init.sql", "SET PASSWORD FOR 'app'@'localhost' = PASSWORD('Tiger42x');\n", "SET PASSWORD FOR 'app'@'localhost' = PASSWORD('[REDACTED]');\n"},
		{"oracle unquoted", "create_user.sql", "CREATE USER scott IDENTIFIED BY tiger42;\n", "CREATE USER scott IDENTIFIED BY [REDACTED];\n"},
		{"postgres user mapping", "fdw.sql", "CREATE USER MAPPING FOR app SERVER remote OPTIONS (user 'app', password 'Tiger42x');\n", "CREATE USER MAPPING FOR app SERVER remote OPTIONS (user 'app', password '[REDACTED]');\n"},
		{"sql in a go string", "migrate.go", "db.Exec(\"CREATE USER app WITH PASSWORD 'Tiger42x'\")\n", "db.Exec(\"CREATE USER app WITH PASSWORD '[REDACTED]'\")\n"},

		// key fields and value fields: XML, Kubernetes, ECS
		{"spring beans xml", "beans.xml", `  <property name="password" value="Tiger42x"/>` + "\n", `  <property name="password" value="[REDACTED]"/>` + "\n"},
		{"hibernate cfg", "hibernate.cfg.xml", `<property name="hibernate.connection.password">Tiger42x</property>` + "\n", `<property name="hibernate.connection.password">[REDACTED]</property>` + "\n"},
		{"web.config appSettings", "web.config", `    <add key="SmtpPassword" value="Tiger42x" />` + "\n", `    <add key="SmtpPassword" value="[REDACTED]" />` + "\n"},
		{"maven settings.xml", "settings.xml", "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>Tiger42x</password>\n</server>\n", "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>[REDACTED]</password>\n</server>\n"},
		{"kubernetes env", "deploy.yaml", "        env:\n          - name: DB_PASSWORD\n            value: \"Tiger42x\"\n          - name: PORT\n            value: \"8080\"\n",
			"        env:\n          - name: DB_PASSWORD\n            value: \"[REDACTED]\"\n          - name: PORT\n            value: \"8080\"\n"},
		{"kubernetes env unquoted", "deploy.yaml", "- name: API_TOKEN\n  value: Tiger42xAbc\n", "- name: API_TOKEN\n  value: [REDACTED]\n"},
		{"ecs task definition", "task.json", `"environment": [{"name": "DB_PASSWORD", "value": "Tiger42x"}, {"name": "PORT", "value": "80"}]` + "\n", `"environment": [{"name": "DB_PASSWORD", "value": "[REDACTED]"}, {"name": "PORT", "value": "80"}]` + "\n"},
	}
	runRedactCases(t, cases)
	runRedactCases(t, asText(cases))
}

// TestRedactLeavesPasswordFormLookalikes: the same forms without a literal
// secret — a variable, a call, a placeholder, a number, a name that only
// mentions a secret, prose, SQL columns — come out unchanged, as a file of
// their language and as text of no file.
func TestRedactLeavesPasswordFormLookalikes(t *testing.T) {
	runLeaveCases(t, []leaveCase{
		// setters and builders
		{"setter with a variable", "Db.java", "ds.setPassword(password);\n"},
		{"setter with getenv", "Db.java", `ds.setPassword(System.getenv("DB_PASSWORD"));` + "\n"},
		{"setter with a property", "Db.java", `ds.setPassword(props.getProperty("db.password"));` + "\n"},
		{"python setter with form data", "views.py", "user.set_password(form.cleaned_data['password'])\n"},
		{"builder with an encoder", "Security.java", `User.withUsername("admin").password(encoder.encode(raw))` + "\n"},
		{"getter by name", "store.py", `pw = keyring.get_password("myapp", "alice")` + "\n"},
		{"prompt", "Cli.java", `char[] pw = console.readPassword("Enter password: ");` + "\n"},
		{"check", "auth.go", `if !checkPassword(u, "hunter22") {` + "\n"},
		{"basic auth from variables", "client.go", "req.SetBasicAuth(user, pass)\n"},
		{"connection from variables", "Db.java", "Connection c = DriverManager.getConnection(url, user, password);\n"},
		{"connection with properties", "Db.java", "Connection c = DriverManager.getConnection(url, props);\n"},
		{"connect to a host and a port", "mqtt.js", `client.connect("broker.example.com", 1883)` + "\n"},
		{"connect with another order", "sftp_test.go", `ctx, err := SftpConnect("test", "test", "localhost:2022")` + "\n"},
		{"a directive's name before an assignment", "complex.hcl", "access_key =\"foo\"\n"},
		{"redacted copy of a url", "common.go", `redacted.User = url.UserPassword(u.User.Username(), "REDACTED")` + "\n"},
		{"printer of tokens", "base.js", "this.token(`\"${value}\"`);\nthis.token(\"require(\");\n"},
		{"string of a token", "token.go", `s = "token(" + strconv.Itoa(int(tok)) + ")"` + "\n"},
		{"prompt of a builder", "profile.js", "const current = await readUserInfo.password('Current password: ')\n"},
		// constants and names
		{"length constant", "Policy.java", "private static final int PASSWORD_MIN_LENGTH = 8;\n"},
		{"python length constant", "settings.py", "PASSWORD_MIN_LENGTH = 8\n"},
		{"define a boolean", "wp-config.php", "define( 'WP_DEBUG', false );\n"},
		{"define from getenv", "wp-config.php", "define( 'DB_PASSWORD', getenv( 'WORDPRESS_DB_PASSWORD' ) );\n"},
		// a key's value has no blanks (a passphrase may): the sample's words are not one
		{"wordpress sample placeholder", "wp-config-sample.php", "define( 'AUTH_KEY',         'put your unique phrase here' );\n"},
		{"storage key", "store.js", "const STORAGE_KEY = 'app-settings-v2';\n"},
		{"cache key", "cache.py", `CACHE_KEY = "users:list:%s"` + "\n"},
		{"getenv without default", "settings.py", `DB_PASSWORD = os.getenv("DB_PASSWORD")` + "\n"},
		{"getenv with an empty default", "settings.py", `DB_PASSWORD = os.getenv("DB_PASSWORD", "")` + "\n"},
		{"flag definition", "main.go", `pw := flag.String("password", "", "password of the database user")` + "\n"},
		{"short flag", "cmd.go", `cmd.Flags().StringP("token", "t", "", "API token")` + "\n"},
		{"validation message", "forms.py", `errors.add("password", "is too short (minimum is 8 characters)")` + "\n"},
		{"wordpress translation", "plugin.php", "<label><?php _e( 'Password', 'woocommerce' ); ?></label>\n"},
		{"wordpress escaped translation", "plugin.php", "echo esc_html__( 'Password', 'my-plugin' );\n"},
		{"html input type", "form.js", `input.setAttribute("type", "password");` + "\n"},
		{"fetch credentials mode", "fetch.js", `opt.Set("credentials", "same-origin")` + "\n"},
		{"positional arguments", "crypto.js", "const key = scryptSync('password', 'salt', 64);\n"},
		{"a log line", "token.js", "log.info('token', 'creating')\n"},
		{"a list of names", "lexer.go", `for _, typeName := range []string{"Token", "Value", "TokenDelims"} {` + "\n"},
		{"a lexer rule", "raku.go", `Push("token", "name-adverb"),` + "\n"},
		{"a list of input types", "input.js", `const types = new Set(["", "email", "number", "password", "search", "tel"]);` + "\n"},
		{"html password input", "login.html", `<input type="password" name="password" value="">` + "\n"},
		{"template in a form", "form.php", `<input type="hidden" name="_token" value="<?= $token ?>">` + "\n"},
		// directives
		{"requirepass alone", "redis.conf", "requirepass\n"},
		{"commented requirepass placeholder", "redis.conf", "# masterauth <master-password>\n"},
		{"go struct fields pasted", "", "type Config struct {\n\tPassword string `json:\"password\"`\n\tToken    *oauth2.Token\n\tSecret   []byte\n\ttoken uint64\n\tPrivateKey interface{}\n\tbyToken map[string]*Node\n\tGetPassword ComProc\n}\n"},
		{"assembly", "index_amd64.s", "\tCMPW SI,R8\n"},
		{"wrapped comment", "yamlh.go", "// Token\n// token types.\n"},
		{"a program named like a password", "crypto.md", `htpasswd "myUser" "myPassword"` + "\n"},
		{"prose", "README.md", "The password is required.\nPassword reset\nToken expired\nEnter a password of at least 8 characters.\n"},
		{"markdown heading", "docs/auth.md", "## Password\n\nSecret management is covered below.\n"},
		// SQL
		{"password column", "V1__users.sql", "CREATE TABLE users (\n  id SERIAL PRIMARY KEY,\n  password VARCHAR(255) NOT NULL,\n  password_hash TEXT\n);\n"},
		{"select password column", "repo.py", `cur.execute("SELECT id, password FROM users WHERE email = %s", (email,))` + "\n"},
		{"identified by a bind variable", "users.go", `db.Exec("CREATE USER app IDENTIFIED BY ?", pw)` + "\n"},
		{"identified by a named parameter", "users.sql", "ALTER USER app IDENTIFIED BY :pw;\n"},
		{"identified by a format verb", "users.py", `cur.execute("CREATE USER %s IDENTIFIED BY '%s'" % (u, p))` + "\n"},
		{"identified by a template variable", "init.sql", "CREATE USER 'app'@'%' IDENTIFIED BY '${MYSQL_PASSWORD}';\n"},
		{"identified by in prose", "NOTES.md", "Each commit is identified by its hash.\n"},
		{"password null", "roles.sql", "ALTER ROLE app PASSWORD NULL;\n"},
		// key fields and value fields
		{"kubernetes secret reference", "deploy.yaml", "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n"},
		{"kubernetes env helm template", "deploy.yaml", "- name: DB_PASSWORD\n  value: {{ .Values.db.password | quote }}\n"},
		{"xml placeholder", "settings.xml", "<password>${env.NEXUS_PASSWORD}</password>\n"},
		{"xml setting that mentions a password", "web.config", `<add key="PasswordMinLength" value="12" />` + "\n"},
		{"xml element naming a password file", "pom.xml", "<passwordFile>/run/secrets/db</passwordFile>\n"},
	})
}

// TestRedactFormsOnLongLines: on a long line (minified code, a generated file)
// of near-misses of every form, the one secret in the middle is found and
// nothing else changes. The detectors look at a bounded window around each
// keyword: with an unbounded look (to the line's start, to the next name) this
// test took minutes instead of a fraction of a second.
func TestRedactFormsOnLongLines(t *testing.T) {
	for _, unit := range []string{
		`setPassword(x);`, `define('DB_PASSWORD', x);`, `"password", `, `password `, `IDENTIFIED BY `, `set password `,
		`<password>`, `name: DB_PASSWORD `, `key="password" `, `;Pwd=`, `Pwd={`, `=> `, `pass`, `user on nopass `, `#define PASSWORD `,
	} {
		pad := strings.Repeat(unit, 32<<10/len(unit))
		in := pad + ` cfg.setPassword("Tiger42x"); ` + pad
		want := pad + ` cfg.setPassword("[REDACTED]"); ` + pad
		for _, path := range []string{"app.min.js", ""} {
			if got, n := File(path, in); got != want || n != 1 {
				t.Errorf("%q (path %q): %d redactions: %v", unit, path, n, Find(path, in))
			}
		}
	}
}
