package redact

import "testing"

// TestRedactAssignmentSyntaxes: `name = value` where the syntax is not a
// plain assignment — a connection string's `key=value;` list (ODBC, ADO.NET,
// JDBC), also inside a string of code, a query string, `=>` of PHP, Ruby and
// C#, SQL's N'…', a password word glued to another (rpcpassword). The value
// goes; the key and the structure stay.
func TestRedactAssignmentSyntaxes(t *testing.T) {
	cases := []redactCase{
		{"odbc PWD", "", "Driver={ODBC Driver 18 for SQL Server};Server=db;Database=app;UID=sa;PWD=Tiger42x;\n", "Driver={ODBC Driver 18 for SQL Server};Server=db;Database=app;UID=sa;PWD=[REDACTED];\n"},
		{"odbc Pwd in python", "db.py", `conn = pyodbc.connect("DRIVER={PostgreSQL};SERVER=db;UID=app;Pwd=Tiger42x")` + "\n", `conn = pyodbc.connect("DRIVER={PostgreSQL};SERVER=db;UID=app;Pwd=[REDACTED]")` + "\n"},
		{"odbc braced value", "", "Server=db;Uid=sa;Pwd={Tiger;42x};Database=app\n", "Server=db;Uid=sa;Pwd={[REDACTED]};Database=app\n"},
		{"ado.net in C#", "Db.cs", `var cs = "Server=db;Database=app;User Id=sa;Password=Tiger42x;";` + "\n", `var cs = "Server=db;Database=app;User Id=sa;Password=[REDACTED];";` + "\n"},
		{"appsettings.json", "appsettings.json", `  "ConnectionStrings": { "Default": "Server=tcp:db,1433;Initial Catalog=app;User ID=sa;Password=Tiger42x;Encrypt=True;" }` + "\n",
			`  "ConnectionStrings": { "Default": "Server=tcp:db,1433;Initial Catalog=app;User ID=sa;Password=[REDACTED];Encrypt=True;" }` + "\n"},
		{"jdbc sql server in java", "Db.java", `DriverManager.getConnection("jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=Tiger42x;");` + "\n", `DriverManager.getConnection("jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=[REDACTED];");` + "\n"},
		{"jdbc query string in java", "Db.java", `String url = "jdbc:mysql://db/app?user=root&password=Tiger42x&useSSL=false";` + "\n", `String url = "jdbc:mysql://db/app?user=root&password=[REDACTED]&useSSL=false";` + "\n"},
		{"libpq keywords in go", "db.go", `db, err := sql.Open("postgres", "host=db user=app password=Tiger42x dbname=app")` + "\n", `db, err := sql.Open("postgres", "host=db user=app password=[REDACTED] dbname=app")` + "\n"},
		{"oledb database password", "", "Provider=Microsoft.ACE.OLEDB.12.0;Data Source=app.accdb;Jet OLEDB:Database Password=Tiger42x;\n", "Provider=Microsoft.ACE.OLEDB.12.0;Data Source=app.accdb;Jet OLEDB:Database Password=[REDACTED];\n"},
		{"azure storage account key in C#", "Blob.cs", `const string Conn = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Tg42xAbc/9+Zq0==;EndpointSuffix=core.windows.net";` + "\n",
			`const string Conn = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED];EndpointSuffix=core.windows.net";` + "\n"},
		{"bitcoin.conf", "bitcoin.conf", "rpcuser=node\nrpcpassword=Tiger42x\n", "rpcuser=node\nrpcpassword=[REDACTED]\n"},
		{"redis-server flag", "docker-compose.yml", "    command: redis-server --requirepass Tiger42x --appendonly yes\n", "    command: redis-server --requirepass [REDACTED] --appendonly yes\n"},
		{"sql server login", "login.sql", "CREATE LOGIN app WITH PASSWORD = N'Tiger42x', CHECK_POLICY = OFF;\n", "CREATE LOGIN app WITH PASSWORD = N'[REDACTED]', CHECK_POLICY = OFF;\n"},
		{"php array", "config.php", "'password' => 'Tiger42x',\n", "'password' => '[REDACTED]',\n"},
		{"ruby hash rocket", "database.rb", "  :password => \"Tiger42x\",\n", "  :password => \"[REDACTED]\",\n"},
		{"C# expression-bodied property", "Settings.cs", `public string ApiKey => "Tiger42xAbc99";` + "\n", `public string ApiKey => "[REDACTED]";` + "\n"},
		// a name ending in salt or key whose literal looks generated (randomLiteral)
		{"flask-security salt", "config.py", `SECURITY_PASSWORD_SALT = "x7#Kq9!mZ2@pL4$vR8^tW1&e"` + "\n", `SECURITY_PASSWORD_SALT = "[REDACTED]"` + "\n"},
		{"salt that starts like a placeholder", "config.py", `SECURITY_PASSWORD_SALT = '<k$Lw)u8:J0S53g]X*z{q!D'` + "\n", `SECURITY_PASSWORD_SALT = '[REDACTED]'` + "\n"},
	}
	runRedactCases(t, cases)
	runRedactCases(t, asText(cases))
}

// asText returns the cases of files as text of no file (a problem pasted in):
// redacted the same way.
func asText(cases []redactCase) []redactCase {
	var out []redactCase
	for _, c := range cases {
		if c.path != "" {
			c.name += " (as text)"
			c.path = ""
			out = append(out, c)
		}
	}
	return out
}

// TestRedactLeavesAssignmentLookalikes: the same syntaxes holding a
// placeholder, a concatenation, a format, a message, validation rules or code.
func TestRedactLeavesAssignmentLookalikes(t *testing.T) {
	runLeaveCases(t, []leaveCase{
		{"a salt that is a word", "config.py", `SECURITY_PASSWORD_SALT = "static-salt-value"` + "\n"},
		{"laravel validation rules", "RegisterRequest.php", "'password' => 'required|string|min:8|confirmed',\n"},
		{"laravel message", "lang/en/auth.php", "'password' => 'The provided password is incorrect.',\n"},
		{"php array from a request", "UserController.php", "'password' => Hash::make($request->password),\n"},
		{"arrow function", "tokens.js", "const names = tokens.map(token => token.trim());\n"},
		{"goreleaser template", ".goreleaser.yml", `    private_key: "{{ .Env.AUR_KEY }}"` + "\n"},
		{"js template", "oidc.js", "const authTokenKey = `${regKey}:_authToken`\n"},
		{"go struct literal with a pointer", "server.go", "addedKey := &AddedKey{PrivateKey: &priv, Comment: k.Comments}\n"},
		{"an error message", "auth_test.go", `t.Errorf("loadCredential:\nhave %q\nwant %q", got, want)` + "\n"},
		{"a symbol name", "browser.d.ts", "globalThis[Symbol.for('secret:mocks')]\n"},
		{"connection string placeholder", "Db.cs", `var cs = string.Format("Server={0};User Id={1};Password={2};", host, user, pw);` + "\n"},
		{"connection string concatenation", "Db.cs", `var cs = "Server=db;User Id=sa;Password=" + pw + ";";` + "\n"},
		{"connection string format", "db.go", `dsn := fmt.Sprintf("host=%s user=%s password=%s dbname=%s", h, u, p, d)` + "\n"},
		{"connection string env reference", "appsettings.json", `"Default": "Server=db;User Id=sa;Password=${DB_PASSWORD};"` + "\n"},
		{"shell working directory", "build.sh", "PWD=/home/ci/src; cd \"$PWD\"\n"},
		{"requirepass from the environment", "entrypoint.sh", "redis-server --requirepass \"$REDIS_PASSWORD\"\n"},
		{"update with a bind parameter", "repo.go", `db.Exec("UPDATE users SET password = ? WHERE id = ?", h, id)` + "\n"},
	})
}

// leaveCase is a text that comes out unchanged as the file at path and as
// text of no file.
type leaveCase struct{ name, path, in string }

func runLeaveCases(t *testing.T, tests []leaveCase) {
	t.Helper()
	for _, tt := range tests {
		for _, path := range []string{tt.path, ""} {
			if got, _ := File(path, tt.in); got != tt.in {
				t.Errorf("%s: File(%q, %q)\n = %q; want it unchanged (%v)", tt.name, path, tt.in, got, Find(path, tt.in))
			}
		}
	}
}
