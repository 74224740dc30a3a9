package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"fixplan/llm"
)

// WindowTimeout bounds the whole window probe: a server that does not answer its
// model endpoints in time is treated as unknown, and planning goes on.
const WindowTimeout = 3 * time.Second

// maxWindowBody caps what is read of one probe answer (Ollama's /api/show carries
// the model's template and licence).
const maxWindowBody = 4 << 20

// windowCache remembers probe results per base URL and model for the life of the
// client (one app session, one CLI run).
type windowCache struct {
	mu   sync.Mutex
	byPM map[string]llm.Window
}

// Window asks the server what context window it serves for the model, where the
// server says: Ollama (/api/ps for the running model's context_length, else
// /api/show: num_ctx in the model's parameters, else the server default of 4096
// tokens, or OLLAMA_CONTEXT_LENGTH when this machine sets it for a local server,
// capped by the model's own context_length), LM Studio (/api/v0/models:
// loaded_context_length, else max_context_length), llama.cpp server (/props:
// default_generation_settings.n_ctx) and vLLM (/v1/models: max_model_len). All
// probes go to the provider's own base URL (scheme and host), in parallel, within
// WindowTimeout; redirects are not followed. The answer is cached per base URL and
// model. A server that answers none of them gives a Window with Tokens 0
// (unknown); api.openai.com is never probed. Window never fails.
func (c *Client) Window(ctx context.Context) llm.Window {
	key := c.providerKey()
	c.windows.mu.Lock()
	if w, ok := c.windows.byPM[key]; ok {
		c.windows.mu.Unlock()
		return w
	}
	c.windows.mu.Unlock()
	w := c.probeWindow(ctx)
	if ctx.Err() != nil { // cancelled: do not remember "unknown"
		return w
	}
	c.windows.mu.Lock()
	if c.windows.byPM == nil {
		c.windows.byPM = map[string]llm.Window{}
	}
	c.windows.byPM[key] = w
	c.windows.mu.Unlock()
	return w
}

func (c *Client) probeWindow(ctx context.Context) llm.Window {
	base, err := url.Parse(strings.TrimRight(c.cfg.BaseURL, "/"))
	if err != nil || base.Host == "" {
		return llm.Window{}
	}
	if h := strings.ToLower(base.Hostname()); h == "openai.com" || strings.HasSuffix(h, ".openai.com") {
		return llm.Window{}
	}
	root := *base
	root.Path = strings.TrimSuffix(root.Path, "/v1")
	root.RawQuery, root.Fragment = "", ""
	p := &prober{c: c, base: base.String(), root: strings.TrimRight(root.String(), "/"),
		http: &http.Client{Transport: http.DefaultTransport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	ctx, cancel := context.WithTimeout(ctx, WindowTimeout)
	defer cancel()
	probes := []func(context.Context) llm.Window{p.ollama, p.lmstudio, p.llamacpp, p.vllm}
	results := make([]llm.Window, len(probes))
	var wg sync.WaitGroup
	for i, f := range probes {
		wg.Go(func() { results[i] = f(ctx) })
	}
	wg.Wait()
	for _, w := range results { // in the order of the probes: the most specific endpoint wins
		if w.Tokens > 0 {
			return w
		}
	}
	return llm.Window{}
}

type prober struct {
	c    *Client
	base string // the base URL as configured (…/v1)
	root string // the server root (the base URL without /v1)
	http *http.Client
}

// get fetches u (on the provider's own host) and decodes its JSON into v. Only a
// 200 answer with a JSON body counts.
func (p *prober) get(ctx context.Context, method, u string, body any, v any) bool {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return false
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if p.c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.c.cfg.APIKey)
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(bufio.NewReader(io.LimitReader(resp.Body, maxWindowBody))).Decode(v) == nil
}

// sameModel matches a model name as configured with one a server lists: exact,
// ignoring case, or with Ollama's implied ":latest" tag.
func sameModel(configured, listed string) bool {
	a, b := strings.ToLower(configured), strings.ToLower(listed)
	return a == b || a+":latest" == b || a == b+":latest"
}

// OllamaDefaultContext is the window Ollama serves a model that sets no num_ctx
// when OLLAMA_CONTEXT_LENGTH is not set (its documented default on machines with
// less than 24 GiB of VRAM; older versions served 2048).
const OllamaDefaultContext = 4096

func (p *prober) ollama(ctx context.Context) llm.Window {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if p.get(ctx, http.MethodGet, p.root+"/api/ps", nil, &ps) {
		for _, m := range ps.Models {
			if (sameModel(p.c.cfg.Model, m.Name) || sameModel(p.c.cfg.Model, m.Model)) && m.ContextLength > 0 {
				return llm.Window{Tokens: m.ContextLength, Server: llm.ServerOllama, Source: "Ollama /api/ps (the running model's context_length)"}
			}
		}
	}
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if !p.get(ctx, http.MethodPost, p.root+"/api/show", map[string]string{"model": p.c.cfg.Model}, &show) {
		return llm.Window{}
	}
	trained := 0
	for k, v := range show.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if f, ok := v.(float64); ok && f > 0 && f < math.MaxInt64 { // int(f) of 2^63 or more is undefined
				trained = int(f)
			}
		}
	}
	w := llm.Window{Server: llm.ServerOllama, Max: trained}
	for _, line := range strings.Split(show.Parameters, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				w.Tokens, w.Source = n, "Ollama /api/show (the model's num_ctx parameter)"
			}
		}
	}
	if w.Tokens == 0 {
		w.Tokens, w.Source = OllamaDefaultContext, fmt.Sprintf("Ollama's default window (%d tokens; the model sets no num_ctx and is not loaded)", OllamaDefaultContext)
		if n, err := strconv.Atoi(os.Getenv("OLLAMA_CONTEXT_LENGTH")); err == nil && n > 0 && isLoopback(p.root) {
			w.Tokens, w.Source = n, "OLLAMA_CONTEXT_LENGTH (set on this machine; the model is not loaded)"
		}
	}
	if trained > 0 && trained < w.Tokens {
		w.Tokens = trained
	}
	return w
}

func isLoopback(u string) bool {
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	h := pu.Hostname()
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1"
}

func (p *prober) lmstudio(ctx context.Context) llm.Window {
	var list struct {
		Data []struct {
			ID                  string `json:"id"`
			State               string `json:"state"`
			MaxContextLength    int    `json:"max_context_length"`
			LoadedContextLength int    `json:"loaded_context_length"`
		} `json:"data"`
	}
	if !p.get(ctx, http.MethodGet, p.root+"/api/v0/models", nil, &list) {
		return llm.Window{}
	}
	idx := -1
	loaded := []int{}
	for i, m := range list.Data {
		if sameModel(p.c.cfg.Model, m.ID) {
			idx = i
		}
		if m.State == "loaded" {
			loaded = append(loaded, i)
		}
	}
	if idx < 0 && len(loaded) == 1 { // LM Studio answers any model name with the one loaded
		idx = loaded[0]
	}
	if idx < 0 {
		return llm.Window{}
	}
	m := list.Data[idx]
	switch {
	case m.LoadedContextLength > 0:
		return llm.Window{Tokens: m.LoadedContextLength, Max: m.MaxContextLength, Server: llm.ServerLMStudio, Source: "LM Studio /api/v0/models (loaded_context_length)"}
	case m.MaxContextLength > 0:
		return llm.Window{Tokens: m.MaxContextLength, Max: m.MaxContextLength, Server: llm.ServerLMStudio, Source: "LM Studio /api/v0/models (max_context_length; the model is not loaded)"}
	}
	return llm.Window{}
}

func (p *prober) llamacpp(ctx context.Context) llm.Window {
	var props struct {
		Default struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		NCtx int `json:"n_ctx"`
	}
	if !p.get(ctx, http.MethodGet, p.root+"/props", nil, &props) {
		return llm.Window{}
	}
	n := props.Default.NCtx
	if n == 0 {
		n = props.NCtx
	}
	if n <= 0 {
		return llm.Window{}
	}
	return llm.Window{Tokens: n, Server: llm.ServerLlamaCpp, Source: "llama.cpp server /props (default_generation_settings.n_ctx)"}
}

func (p *prober) vllm(ctx context.Context) llm.Window {
	var list struct {
		Data []struct {
			ID          string `json:"id"`
			MaxModelLen int    `json:"max_model_len"`
		} `json:"data"`
	}
	if !p.get(ctx, http.MethodGet, p.base+"/models", nil, &list) {
		return llm.Window{}
	}
	for _, m := range list.Data {
		if m.MaxModelLen > 0 && (sameModel(p.c.cfg.Model, m.ID) || len(list.Data) == 1) {
			return llm.Window{Tokens: m.MaxModelLen, Server: llm.ServerVLLM, Source: "vLLM /v1/models (max_model_len)"}
		}
	}
	return llm.Window{}
}

// reportsStreamUsage says whether a streamed reply is asked for its token usage
// (stream_options.include_usage): OpenAI's API only, because some local servers
// refuse parameters they do not know. Elsewhere fixplan counts the tokens itself.
func reportsStreamUsage(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == "openai.com" || strings.HasSuffix(h, ".openai.com")
}
