package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

func TestOpenAndRecover(t *testing.T) {
	open := func(t *testing.T, root string) (*Session, Recovery) {
		t.Helper()
		cfg := t.TempDir()
		s, rv, err := OpenAndRecover(root, DefaultSettings(), nil, nil, Options{ConfigDir: cfg, UserPrefsPath: filepath.Join(cfg, "preferences.json")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s, rv
	}
	t.Run("a journal that is not yours is set aside and told", func(t *testing.T) {
		root := project(t)
		tx := filepath.Join(root, ".fixplan", "tx", "20260101-000000.000000-abcdef")
		if err := os.MkdirAll(tx, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tx, "journal.json"), []byte(`{"state":"applying"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		_, rv := open(t, root)
		if rv.Skipped != nil || len(rv.Notices) != 1 || !strings.Contains(rv.Notices[0], "was set aside") {
			t.Fatalf("recovery = %+v", rv)
		}
	})
	t.Run("another fixplan holding the project skips recovery, never the open", func(t *testing.T) {
		root := project(t)
		if err := os.MkdirAll(filepath.Join(root, ".fixplan", "tx"), 0o755); err != nil {
			t.Fatal(err)
		}
		held := flock.New(filepath.Join(root, ".fixplan", "lock"))
		if err := held.Lock(); err != nil {
			t.Fatal(err)
		}
		defer held.Unlock()
		s, rv := open(t, root)
		if rv.Skipped == nil || !strings.Contains(rv.Skipped.Error(), "another fixplan") || len(rv.Notices) != 0 {
			t.Fatalf("recovery = %+v", rv)
		}
		if _, err := s.History(); err != nil {
			t.Errorf("the project is not usable: %v", err)
		}
	})
	t.Run("a folder that is not there is an error", func(t *testing.T) {
		if _, _, err := OpenAndRecover(filepath.Join(t.TempDir(), "missing"), DefaultSettings(), nil, nil, Options{ConfigDir: t.TempDir()}); err == nil {
			t.Fatal("opened a missing folder")
		}
	})
}
