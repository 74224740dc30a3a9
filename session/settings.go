package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fixplan/internal/fsutil"
	"fixplan/plan"
)

// Settings configure the provider and the context budget. The API key is NOT part
// of Settings: it comes from the OS keychain (desktop) or the environment, so it is
// never written to the settings file.
type Settings struct {
	Provider       string `json:"provider"` // preset id: openai, ollama, lmstudio, llamacpp, custom
	BaseURL        string `json:"base_url"`
	Model          string `json:"model"`
	TimeoutSeconds int    `json:"timeout_seconds"`
	MaxTokens      int    `json:"max_tokens"`
	MaxRetries     int    `json:"max_retries"`
	Stream         bool   `json:"stream"`
	// ContextBudget caps the bytes of context sent in one request (base or one round).
	ContextBudget int `json:"context_budget"`
	// ResultBudget caps one context request's result.
	ResultBudget int `json:"result_budget"`
	// CommandTimeoutSeconds bounds each verification command.
	CommandTimeoutSeconds int `json:"command_timeout_seconds"`
	// VerifyBeforeReview checks each plan in a scratch copy with the approved
	// checks before it is shown.
	VerifyBeforeReview bool `json:"verify_before_review"`
	// VerifyAttempts is how many times a plan that fails verification goes back
	// to the model with the output (0 = none).
	VerifyAttempts int `json:"verify_attempts"`
	// CheckTimeoutSeconds bounds each check run during verification.
	CheckTimeoutSeconds int `json:"check_timeout_seconds"`
	// EditFormat is how the model is asked to change existing files: auto, whole,
	// search_replace or diff (editformat.go).
	EditFormat string `json:"edit_format"`
	// ContextWindow is the model's context window in tokens, for servers that do
	// not say (0: ask the server; a positive value wins over its answer).
	ContextWindow int `json:"context_window"`
	// PriceInput and PriceOutput are the prices per million prompt and reply
	// tokens (0: not set); plans then show what they cost.
	PriceInput  float64 `json:"price_input_per_mtok"`
	PriceOutput float64 `json:"price_output_per_mtok"`
	// NoProjectRules leaves the project's own instructions for AI tools
	// (AGENTS.md, CLAUDE.md, .cursorrules, …) out of the context sent.
	NoProjectRules bool `json:"no_project_rules"`

	// OpenWith is the "Open files with" command that opens a project file at a
	// line in the user's editor (editor.ParseTemplate: {file}, {line}); ""
	// chooses automatically ($VISUAL, $EDITOR, VS Code, the system's default).
	OpenWith string `json:"open_with"`
	// MaxTokensPerPlan and MaxCostPerPlan are the per-plan ceiling (0: none): a
	// request that would take the plan's tokens (in and out, every request) or
	// its cost at the prices above past it is not sent (cost.go).
	MaxTokensPerPlan int     `json:"max_tokens_per_plan"`
	MaxCostPerPlan   float64 `json:"max_cost_per_plan"`
}

// Preset is a provider preset offered in the settings.
type Preset struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	BaseURL  string `json:"base_url"`
	Model    string `json:"model"`
	NeedsKey bool   `json:"needs_key"`
}

// Presets lists the provider presets, OpenAI first.
func Presets() []Preset {
	return []Preset{
		{ID: "openai", Name: "OpenAI", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", NeedsKey: true},
		{ID: "ollama", Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5-coder"},
		{ID: "lmstudio", Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1", Model: "local-model"},
		{ID: "llamacpp", Name: "llama.cpp server", BaseURL: "http://127.0.0.1:8080/v1", Model: "default"},
		{ID: "custom", Name: "Custom OpenAI-compatible", BaseURL: "", Model: ""},
	}
}

// DefaultSettings returns the settings used when no file exists: OpenAI's preset.
func DefaultSettings() Settings {
	return Settings{
		Provider:              "openai",
		BaseURL:               "https://api.openai.com/v1",
		Model:                 "gpt-4o-mini",
		TimeoutSeconds:        120,
		MaxTokens:             8192,
		MaxRetries:            3,
		Stream:                true,
		ContextBudget:         96 * 1024,
		ResultBudget:          24 * 1024,
		CommandTimeoutSeconds: 600,
		VerifyAttempts:        2,
		CheckTimeoutSeconds:   300,
		EditFormat:            EditAuto,
	}
}

// Timeout is the per-request timeout.
func (s Settings) Timeout() time.Duration { return time.Duration(s.TimeoutSeconds) * time.Second }

// LoadSettings reads the settings file at path over the defaults. A missing file
// gives the defaults; a corrupt one is an ErrConfig error naming the file.
func LoadSettings(path string) (Settings, error) {
	s := DefaultSettings()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read settings: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return DefaultSettings(), &plan.Error{Code: plan.ErrConfig,
			Msg:  fmt.Sprintf("settings file %s is not valid JSON", path),
			Hint: "fix or delete the file; defaults are used until then", Err: err}
	}
	return s.normalised(), nil
}

func (s Settings) normalised() Settings {
	d := DefaultSettings()
	if s.TimeoutSeconds <= 0 {
		s.TimeoutSeconds = d.TimeoutSeconds
	}
	if s.MaxRetries < 0 {
		s.MaxRetries = 0
	}
	if s.ContextBudget <= 0 {
		s.ContextBudget = d.ContextBudget
	}
	if s.ResultBudget <= 0 {
		s.ResultBudget = d.ResultBudget
	}
	if s.CommandTimeoutSeconds <= 0 {
		s.CommandTimeoutSeconds = d.CommandTimeoutSeconds
	}
	if s.VerifyAttempts < 0 || s.VerifyAttempts > 5 {
		s.VerifyAttempts = d.VerifyAttempts
	}
	if s.CheckTimeoutSeconds <= 0 {
		s.CheckTimeoutSeconds = d.CheckTimeoutSeconds
	}
	if f, err := ParseEditFormat(s.EditFormat); err == nil {
		s.EditFormat = f
	} else {
		s.EditFormat = d.EditFormat
	}
	s.ContextWindow = max(s.ContextWindow, 0)
	s.OpenWith = storedOpenWith(s.OpenWith)
	if s.PriceInput < 0 || math.IsNaN(s.PriceInput) || math.IsInf(s.PriceInput, 0) {
		s.PriceInput = 0
	}
	if s.PriceOutput < 0 || math.IsNaN(s.PriceOutput) || math.IsInf(s.PriceOutput, 0) {
		s.PriceOutput = 0
	}
	s.MaxTokensPerPlan = max(s.MaxTokensPerPlan, 0)
	if s.MaxCostPerPlan < 0 || math.IsNaN(s.MaxCostPerPlan) || math.IsInf(s.MaxCostPerPlan, 0) {
		s.MaxCostPerPlan = 0
	}
	return s
}

// Validate refuses a value typed in that has no meaning (a negative window, a zero
// timeout, more than 5 repair attempts, …) with ERR_INVALID_INPUT naming the field
// and its range. Saving must not quietly store something else than what the user
// sees; a file written by hand is still normalised when it is loaded.
func (s Settings) Validate() error {
	bad := func(field string, v any, want string) error {
		return plan.Errorf(plan.ErrInvalidInput, "%s %v is out of range: it must be %s", field, v, want).
			WithHint("correct the value in Settings and save again")
	}
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch {
	case s.TimeoutSeconds < 1:
		return bad("timeout (s)", s.TimeoutSeconds, "at least 1 second")
	case s.MaxTokens < 0:
		return bad("max tokens", s.MaxTokens, "0 (the provider's default) or more")
	case s.MaxRetries < 0:
		return bad("retries", s.MaxRetries, "0 or more")
	case s.ContextBudget < 1:
		return bad("context budget (bytes)", s.ContextBudget, "at least 1")
	case s.ContextWindow < 0:
		return bad("context window (tokens)", s.ContextWindow, "0 (ask the server) or more")
	case s.PriceInput < 0 || !finite(s.PriceInput):
		return bad("price per 1M tokens in", s.PriceInput, "0 (not set) or more")
	case s.PriceOutput < 0 || !finite(s.PriceOutput):
		return bad("price per 1M tokens out", s.PriceOutput, "0 (not set) or more")
	case s.VerifyAttempts < 0 || s.VerifyAttempts > 5:
		return bad("repair attempts", s.VerifyAttempts, "between 0 and 5")
	case s.CheckTimeoutSeconds < 1:
		return bad("check timeout (s)", s.CheckTimeoutSeconds, "at least 1 second")
	}
	if err := s.CheckCeiling(); err != nil {
		return err.WithHint("correct the value in Settings and save again; " + err.Hint)
	}
	return validOpenWith(s.OpenWith)
}

// CheckCeiling refuses a per-plan ceiling that has no meaning, with
// ERR_INVALID_INPUT: a negative one, or a cost ceiling without any price (nothing
// would have a cost, so it could never stop anything). Validate runs it; the CLI
// runs it on the ceiling its flags set.
func (s Settings) CheckCeiling() *plan.Error {
	switch {
	case s.MaxTokensPerPlan < 0:
		return plan.Errorf(plan.ErrInvalidInput, "max tokens per plan %d is out of range: it must be 0 (no ceiling) or more", s.MaxTokensPerPlan).
			WithHint("give a whole number of tokens")
	case s.MaxCostPerPlan < 0 || math.IsNaN(s.MaxCostPerPlan) || math.IsInf(s.MaxCostPerPlan, 0):
		return plan.Errorf(plan.ErrInvalidInput, "max cost per plan %v is out of range: it must be 0 (no ceiling) or more", s.MaxCostPerPlan).
			WithHint("give an amount in the currency of your prices")
	case s.MaxCostPerPlan > 0 && s.PriceInput == 0 && s.PriceOutput == 0:
		return plan.Errorf(plan.ErrInvalidInput, "max cost per plan %v cannot apply: no price per 1M tokens is set, so nothing has a cost", s.MaxCostPerPlan).
			WithHint("set the prices in and out (Settings, or price_input_per_mtok and price_output_per_mtok in settings.json), or cap the plan in tokens (max tokens per plan, fixplan plan --max-tokens N)")
	}
	return nil
}

// Ceiling is the per-plan ceiling these settings set.
func (s Settings) Ceiling() Ceiling {
	return Ceiling{Tokens: s.MaxTokensPerPlan, Cost: s.MaxCostPerPlan}
}

// SaveSettings checks s (Validate) and writes it to path atomically (temp file,
// fsync, rename), creating the folder.
func SaveSettings(path string, s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s.normalised(), "", "  ")
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create settings dir: %w", err)
	}
	return fsutil.WriteFileAtomic(path, append(b, '\n'), 0o600)
}

// WithEnv overrides settings from FIXPLAN_BASE_URL, FIXPLAN_MODEL, FIXPLAN_TIMEOUT
// (seconds) and FIXPLAN_MAX_TOKENS.
func (s Settings) WithEnv(getenv func(string) string) Settings {
	if v := getenv("FIXPLAN_BASE_URL"); v != "" {
		s.BaseURL = v
		s.Provider = "custom"
	}
	if v := getenv("FIXPLAN_MODEL"); v != "" {
		s.Model = v
	}
	if n, err := strconv.Atoi(getenv("FIXPLAN_TIMEOUT")); err == nil && n > 0 {
		s.TimeoutSeconds = n
	}
	if n, err := strconv.Atoi(getenv("FIXPLAN_MAX_TOKENS")); err == nil && n > 0 {
		s.MaxTokens = n
	}
	return s
}

// APIKeyFromEnv returns FIXPLAN_API_KEY, else OPENAI_API_KEY, else "".
func APIKeyFromEnv(getenv func(string) string) string {
	if k := getenv("FIXPLAN_API_KEY"); k != "" {
		return k
	}
	return getenv("OPENAI_API_KEY")
}

// MissingKey returns ERR_PROVIDER_AUTH when the provider is OpenAI's API (which
// always needs a key) and no key is set, and ERR_CONFIG for an unusable base URL.
func MissingKey(st Settings, key string) error {
	u, err := url.Parse(st.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return plan.Errorf(plan.ErrConfig, "the provider base URL %q is not an http(s) URL", st.BaseURL).
			WithHint("set the base URL in Settings or FIXPLAN_BASE_URL, e.g. http://127.0.0.1:11434/v1")
	}
	if key == "" && strings.HasSuffix(u.Hostname(), "openai.com") {
		return plan.Errorf(plan.ErrProviderAuth, "no API key for %s", st.BaseURL).
			WithHint("set FIXPLAN_API_KEY (or OPENAI_API_KEY), store the key in Settings, or choose a local provider")
	}
	return nil
}
