package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"fixplan/internal/config"
	"fixplan/llm"
	"fixplan/plan"
	"fixplan/session"
)

// SettingsView is the settings as the window sees them. The key itself is never
// sent back: only whether one is set, where from, and a hint of its last characters.
type SettingsView struct {
	session.Settings
	KeySet            bool   `json:"key_set"`
	KeyHint           string `json:"key_hint"`
	KeySource         string `json:"key_source"` // keychain, env, none
	KeychainAvailable bool   `json:"keychain_available"`
	KeychainNote      string `json:"keychain_note"`
}

func (a *App) settingsPath() string { return config.SettingsFile(a.d.ConfigDir) }

// settings returns the stored settings with env overrides and the key to use.
func (a *App) settings() (session.Settings, string) {
	st, _ := session.LoadSettings(a.settingsPath())
	st = st.WithEnv(a.d.Getenv)
	key, _ := a.key()
	return st, key
}

// key returns the API key and where it came from: the keychain first, then the env.
func (a *App) key() (string, string) {
	if a.d.Keys != nil {
		if ok, _ := a.d.Keys.Available(); ok {
			if k, err := a.d.Keys.Get(); err == nil && k != "" {
				return k, "keychain"
			}
		}
	}
	if k := session.APIKeyFromEnv(a.d.Getenv); k != "" {
		return k, "env"
	}
	return "", "none"
}

// KeyHint shows the shape of a key without revealing it: "sk-…a1b2".
func KeyHint(k string) string {
	if k == "" {
		return ""
	}
	if len(k) < 12 {
		return "…(" + fmt.Sprint(len(k)) + " characters)"
	}
	return k[:3] + "…" + k[len(k)-4:]
}

func (a *App) view() SettingsView {
	st, _ := session.LoadSettings(a.settingsPath())
	st = st.WithEnv(a.d.Getenv)
	k, src := a.key()
	v := SettingsView{Settings: st, KeySet: k != "", KeyHint: KeyHint(k), KeySource: src}
	if a.d.Keys != nil {
		v.KeychainAvailable, v.KeychainNote = a.d.Keys.Available()
	} else {
		v.KeychainNote = "no keychain: set FIXPLAN_API_KEY or OPENAI_API_KEY in the environment"
	}
	return v
}

// GetSettings returns the current settings.
func (a *App) GetSettings() (SettingsView, error) { return a.view(), nil }

// SaveSettings stores the settings (never the key) and, when apiKey is not empty,
// the key in the keychain. Without a keychain a key cannot be stored: the error
// says to use FIXPLAN_API_KEY.
func (a *App) SaveSettings(v SettingsView, apiKey string) (SettingsView, error) {
	if apiKey != "" {
		if a.d.Keys == nil {
			return a.view(), fail(plan.Errorf(plan.ErrConfig, "no keychain is available to store the key").
				WithHint("set FIXPLAN_API_KEY (or OPENAI_API_KEY) in the environment instead"))
		}
		if ok, note := a.d.Keys.Available(); !ok {
			return a.view(), fail(plan.Errorf(plan.ErrConfig, "the key cannot be stored: %s", note).
				WithHint("set FIXPLAN_API_KEY (or OPENAI_API_KEY) in the environment instead"))
		}
		if err := a.d.Keys.Set(apiKey); err != nil {
			return a.view(), fail(plan.Errorf(plan.ErrConfig, "the keychain refused the key").
				WithHint("set FIXPLAN_API_KEY (or OPENAI_API_KEY) in the environment instead"))
		}
	}
	if err := session.SaveSettings(a.settingsPath(), v.Settings); err != nil {
		return a.view(), fail(err)
	}
	st, key := a.settings()
	a.mu.Lock()
	s, planning := a.sess, a.cancel != nil
	a.mu.Unlock()
	switch {
	case s != nil && !planning:
		// Reopen so the new context budgets apply too (recovery finds nothing new).
		if _, err := a.OpenProject(s.Root()); err != nil {
			return a.view(), err
		}
	case s != nil && a.d.NewModel != nil:
		if m, err := a.d.NewModel(st, key); err == nil {
			s.SetModel(m, st)
		}
	}
	return a.view(), nil
}

// Presets lists the provider presets.
func (a *App) Presets() ([]session.Preset, error) { return session.Presets(), nil }

// TestConnection sends one tiny request with the current settings.
func (a *App) TestConnection() (string, error) {
	st, key := a.settings()
	if a.d.NewModel == nil {
		return "", fail(plan.Errorf(plan.ErrConfig, "no provider is configured"))
	}
	m, err := a.d.NewModel(st, key)
	if err != nil {
		return "", fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), st.Timeout())
	defer cancel()
	start := time.Now()
	resp, err := m.Complete(ctx, llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleUser, Content: `Reply with the JSON object {"ok": true} and nothing else.`}},
		MaxTokens: 20,
	})
	if err != nil {
		return "", fail(session.ProviderError(err, st.BaseURL, ctx))
	}
	model := resp.Model
	if model == "" {
		model = st.Model
	}
	return fmt.Sprintf("OK: %s at %s answered in %s", model, st.BaseURL, time.Since(start).Round(time.Millisecond)), nil
}

func (a *App) recentPath() string { return config.RecentFile(a.d.ConfigDir) }

func (a *App) recent() []string {
	var out []string
	b, err := os.ReadFile(a.recentPath())
	if err == nil {
		_ = json.Unmarshal(b, &out)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// remember puts root first in the recent list (at most 10).
func (a *App) remember(root string) {
	list := []string{root}
	for _, r := range a.recent() {
		if r != root && len(list) < 10 {
			list = append(list, r)
		}
	}
	b, _ := json.MarshalIndent(list, "", "  ")
	if err := os.MkdirAll(a.d.ConfigDir, 0o700); err == nil {
		_ = os.WriteFile(a.recentPath(), b, 0o600)
	}
}
