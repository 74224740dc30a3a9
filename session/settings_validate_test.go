package session

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixplan/plan"
)

// An out-of-range value typed in Settings is refused with an error naming the
// field, and nothing is written: the user never sees "Saved." for a value that
// was silently replaced (-5 stored as 0, a check timeout of 0 stored as 300).
func TestSaveSettingsRefusesOutOfRange(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Settings)
		field string
	}{
		{"negative context window", func(s *Settings) { s.ContextWindow = -5 }, "context window"},
		{"zero check timeout", func(s *Settings) { s.CheckTimeoutSeconds = 0 }, "check timeout"},
		{"six repair attempts", func(s *Settings) { s.VerifyAttempts = 6 }, "repair attempts"},
		{"zero timeout", func(s *Settings) { s.TimeoutSeconds = 0 }, "timeout (s)"},
		{"negative price", func(s *Settings) { s.PriceOutput = -1 }, "price per 1M tokens out"},
		{"NaN price", func(s *Settings) { s.PriceInput = math.NaN() }, "price per 1M tokens in"},
		{"negative retries", func(s *Settings) { s.MaxRetries = -1 }, "retries"},
		{"negative max tokens per plan", func(s *Settings) { s.MaxTokensPerPlan = -1 }, "max tokens per plan"},
		{"infinite max cost per plan", func(s *Settings) { s.PriceInput, s.MaxCostPerPlan = 1, math.Inf(1) }, "max cost per plan"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			s := DefaultSettings()
			c.edit(&s)
			err := SaveSettings(path, s)
			var pe *plan.Error
			if !errors.As(err, &pe) || pe.Code != plan.ErrInvalidInput {
				t.Fatalf("SaveSettings = %v, want ERR_INVALID_INPUT", err)
			}
			if !strings.Contains(pe.Msg, c.field) || !strings.Contains(pe.Msg, "must be") {
				t.Errorf("message %q does not name %q and its range", pe.Msg, c.field)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("a refused value was written: %v", err)
			}
		})
	}
}

// The edges of each range are accepted and stored as typed.
func TestSaveSettingsKeepsInRangeValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s := DefaultSettings()
	s.ContextWindow, s.CheckTimeoutSeconds, s.VerifyAttempts, s.MaxRetries, s.PriceInput = 0, 1, 5, 0, 0.15
	s.MaxTokensPerPlan, s.MaxCostPerPlan = 50000, 0.25
	if err := SaveSettings(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSettings(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.ContextWindow != 0 || got.CheckTimeoutSeconds != 1 || got.VerifyAttempts != 5 || got.PriceInput != 0.15 ||
		got.Ceiling() != (Ceiling{Tokens: 50000, Cost: 0.25}) {
		t.Errorf("stored %+v", got)
	}
}

// A cost ceiling without any price could never stop anything: it is refused with
// what to do instead, not stored to give a false sense of safety.
func TestSaveSettingsRefusesACostCeilingWithoutPrices(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s := DefaultSettings()
	s.MaxCostPerPlan = 0.5
	err := SaveSettings(path, s)
	var pe *plan.Error
	if !errors.As(err, &pe) {
		t.Fatalf("SaveSettings = %v, want a *plan.Error", err)
	}
	if pe.Code != plan.ErrInvalidInput || !strings.Contains(pe.Msg, "max cost per plan 0.5 cannot apply: no price") ||
		!strings.Contains(pe.Hint, "set the prices") || !strings.Contains(pe.Hint, "max tokens per plan") {
		t.Fatalf("SaveSettings = %v (hint %q)", err, pe.Hint)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a refused value was written: %v", err)
	}
}
