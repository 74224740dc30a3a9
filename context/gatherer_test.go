package codectx

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultEnvCachePath(t *testing.T) {
	d, err := os.UserConfigDir()
	if err != nil {
		t.Fatal("no user config folder (set HOME or XDG_CONFIG_HOME):", err)
	}
	if got := DefaultOptions().EnvCachePath; got != filepath.Join(d, "fixplan", "env-cache.json") {
		t.Fatalf("default EnvCachePath = %q", got)
	}
	if (Options{}).normalised().EnvCachePath != "" {
		t.Fatal("a zero EnvCachePath must stay off")
	}
}
