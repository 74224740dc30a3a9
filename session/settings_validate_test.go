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
	if err := SaveSettings(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSettings(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.ContextWindow != 0 || got.CheckTimeoutSeconds != 1 || got.VerifyAttempts != 5 || got.PriceInput != 0.15 {
		t.Errorf("stored %+v", got)
	}
}
