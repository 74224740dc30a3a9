package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestDefault(t *testing.T) {
	d, err := os.UserConfigDir()
	if err != nil {
		t.Fatal("no user config folder (set HOME or XDG_CONFIG_HOME):", err)
	}
	if got, err := Default(); err != nil || got != filepath.Join(d, "fixplan") {
		t.Fatalf("Default() = %q, %v", got, err)
	}
}

func TestNoUserConfigFolder(t *testing.T) {
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "AppData", "home"} {
		t.Setenv(k, "")
	}
	if d, err := Default(); err == nil || !strings.HasPrefix(err.Error(), "find user config dir: ") {
		t.Fatalf("Default() = %q, %v; want an error", d, err)
	}
	if _, err := ForApp(envOf(nil)); err == nil {
		t.Error("ForApp found a folder")
	}
	p, err := ForCLI(envOf(map[string]string{EnvUserPrefs: "/p/prefs.json"}))
	if err == nil || p != (Paths{UserPrefs: "/p/prefs.json"}) {
		t.Errorf("ForCLI = %+v, %v", p, err)
	}
	// A folder the environment names needs no user config folder.
	if p, err := ForCLI(envOf(map[string]string{EnvSettings: "/s/settings.json"})); err != nil || p.Dir != "/s" {
		t.Errorf("ForCLI with FIXPLAN_SETTINGS = %+v, %v", p, err)
	}
	if p, err := ForApp(envOf(map[string]string{EnvDir: "/c"})); err != nil || p.Dir != "/c" {
		t.Errorf("ForApp with FIXPLAN_CONFIG_DIR = %+v, %v", p, err)
	}
}

func TestForAppAndForCLI(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	j := filepath.Join
	for _, tc := range []struct {
		name     string
		vars     map[string]string
		app, cli Paths
	}{
		{"nothing set", nil,
			Paths{def, j(def, "settings.json"), j(def, "preferences.json")},
			Paths{def, j(def, "settings.json"), j(def, "preferences.json")}},
		{"FIXPLAN_CONFIG_DIR", map[string]string{EnvDir: j("c")},
			Paths{j("c"), j("c", "settings.json"), j("c", "preferences.json")},
			Paths{j("c"), j("c", "settings.json"), j("c", "preferences.json")}},
		{"FIXPLAN_SETTINGS moves only the CLI's folder", map[string]string{EnvSettings: j("s", "my.json")},
			Paths{def, j(def, "settings.json"), j(def, "preferences.json")},
			Paths{j("s"), j("s", "my.json"), j("s", "preferences.json")}},
		{"FIXPLAN_CONFIG_DIR wins over the settings file's folder", map[string]string{EnvDir: j("c"), EnvSettings: j("s", "my.json")},
			Paths{j("c"), j("c", "settings.json"), j("c", "preferences.json")},
			Paths{j("c"), j("s", "my.json"), j("c", "preferences.json")}},
		{"FIXPLAN_USER_PREFS", map[string]string{EnvDir: j("c"), EnvUserPrefs: j("u", "p.json")},
			Paths{j("c"), j("c", "settings.json"), j("u", "p.json")},
			Paths{j("c"), j("c", "settings.json"), j("u", "p.json")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := ForApp(envOf(tc.vars)); err != nil || got != tc.app {
				t.Errorf("ForApp = %+v, %v; want %+v", got, err, tc.app)
			}
			if got, err := ForCLI(envOf(tc.vars)); err != nil || got != tc.cli {
				t.Errorf("ForCLI = %+v, %v; want %+v", got, err, tc.cli)
			}
		})
	}
}

func TestFiles(t *testing.T) {
	dir := filepath.Join("cfg")
	for got, want := range map[string]string{
		SettingsFile(dir): "settings.json", PreferencesFile(dir): "preferences.json", StateKeyFile(dir): "state.key",
		EnvCacheFile(dir): "env-cache.json", ApprovalsFile(dir): "approvals.json", RecentFile(dir): "recent.json",
	} {
		if got != filepath.Join(dir, want) {
			t.Errorf("%s, want %s in %s", got, want, dir)
		}
	}
}
