// Package config is the one place that says where fixplan keeps the user's own
// files: the config folder, the environment variables that move it, and the
// names of the files in it. Each edge resolves the folder here once (the desktop
// at start-up, the CLI for each command) and hands it down; the core packages
// whose defaults live in the folder (memory's user file, context/envprobe's
// environment cache) take them from here too, so a rule such as FIXPLAN_CONFIG_DIR is
// written once. It imports no fixplan package: every package may use it.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The environment variables that move the user's files.
const (
	// EnvDir names the config folder.
	EnvDir = "FIXPLAN_CONFIG_DIR"
	// EnvSettings names the CLI's settings file; without EnvDir its folder is
	// then the CLI's config folder. The desktop app ignores it.
	EnvSettings = "FIXPLAN_SETTINGS"
	// EnvUserPrefs names the user memory file.
	EnvUserPrefs = "FIXPLAN_USER_PREFS"
)

// Default is the config folder when the environment names none:
// <os.UserConfigDir()>/fixplan. It fails when the user has no config folder
// (no HOME, say).
func Default() (string, error) {
	dir, err := os.UserConfigDir()
	if err == nil && dir == "" {
		err = errors.New("the user config folder is empty")
	}
	if err != nil {
		return "", fmt.Errorf("find user config dir: %w", err)
	}
	return filepath.Join(dir, "fixplan"), nil
}

// Paths are the user's files as an edge resolved them from its environment.
type Paths struct {
	// Dir is the config folder: the per-user state key, the environment cache,
	// check approvals and verification baselines, the desktop's recent list.
	Dir string
	// Settings is the settings file.
	Settings string
	// UserPrefs is the user memory file.
	UserPrefs string
}

// ForApp resolves the desktop app's files: the folder is $FIXPLAN_CONFIG_DIR,
// else Default; settings.json is in it; the user memory is $FIXPLAN_USER_PREFS,
// else preferences.json in the folder.
func ForApp(getenv func(string) string) (Paths, error) {
	dir := getenv(EnvDir)
	if dir == "" {
		var err error
		if dir, err = Default(); err != nil {
			return Paths{}, err
		}
	}
	return paths(getenv, dir, SettingsFile(dir)), nil
}

// ForCLI resolves the CLI's files: the folder is $FIXPLAN_CONFIG_DIR, else the
// folder of $FIXPLAN_SETTINGS, else Default; the settings file is
// $FIXPLAN_SETTINGS, else settings.json in the folder; the user memory is as
// for the app. When no folder can be found the error says why and the Paths
// hold only what the environment named ($FIXPLAN_USER_PREFS).
func ForCLI(getenv func(string) string) (Paths, error) {
	dir, settings := getenv(EnvDir), getenv(EnvSettings)
	if dir == "" && settings != "" {
		dir = filepath.Dir(settings)
	}
	if dir == "" {
		var err error
		if dir, err = Default(); err != nil {
			return Paths{UserPrefs: getenv(EnvUserPrefs)}, err
		}
	}
	if settings == "" {
		settings = SettingsFile(dir)
	}
	return paths(getenv, dir, settings), nil
}

func paths(getenv func(string) string, dir, settings string) Paths {
	prefs := getenv(EnvUserPrefs)
	if prefs == "" {
		prefs = PreferencesFile(dir)
	}
	return Paths{Dir: dir, Settings: settings, UserPrefs: prefs}
}

// The files in a config folder dir.

// SettingsFile holds the settings (never the API key).
func SettingsFile(dir string) string { return filepath.Join(dir, "settings.json") }

// PreferencesFile is the user memory, unless $FIXPLAN_USER_PREFS names another.
func PreferencesFile(dir string) string { return filepath.Join(dir, "preferences.json") }

// StateKeyFile is the per-user key that seals this user's plans, journals and notes.
func StateKeyFile(dir string) string { return filepath.Join(dir, "state.key") }

// EnvCacheFile caches the environment section's tool versions per machine.
func EnvCacheFile(dir string) string { return filepath.Join(dir, "env-cache.json") }

// ApprovalsFile lists the check commands the user approved, per project.
func ApprovalsFile(dir string) string { return filepath.Join(dir, "approvals.json") }

// RecentFile lists the desktop app's recently opened projects.
func RecentFile(dir string) string { return filepath.Join(dir, "recent.json") }
