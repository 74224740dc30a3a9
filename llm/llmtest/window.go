package llmtest

import (
	"fmt"
	"io"
	"net/http"

	"fixplan/llm"
)

const defaultModels = `{"object":"list","data":[{"id":"fake-model","object":"model","owned_by":"llmtest"}]}`

func recordProbe(r *http.Request) Recorded {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	return Recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
}

// Handle answers pattern (an http.ServeMux pattern such as "GET /api/ps") with
// status and a JSON body, and records each request in Probes. A pattern may be
// handled once per server.
func (s *Server) Handle(pattern string, status int, body string) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.probes = append(s.probes, recordProbe(r))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
}

// SetModels replaces the body of GET /v1/models.
func (s *Server) SetModels(body string) {
	s.mu.Lock()
	s.models = body
	s.mu.Unlock()
}

// Probes returns every request to an endpoint other than chat completions
// (/v1/models and what Handle serves), in order.
func (s *Server) Probes() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.probes...)
}

// ServeWindow makes the server say, the way server does (one of llm.Server*), that
// it serves model with a context window of tokens:
//   - ollama: /api/ps lists the model running with context_length, /api/show
//     gives its model_info (a 32768-token trained context) and no num_ctx;
//   - lmstudio: /api/v0/models lists it loaded with loaded_context_length (and a
//     max_context_length of 32768);
//   - llamacpp: /props has default_generation_settings.n_ctx;
//   - vllm: /v1/models lists it with max_model_len.
func (s *Server) ServeWindow(server, model string, tokens int) {
	switch server {
	case llm.ServerOllama:
		s.Handle("GET /api/ps", http.StatusOK, fmt.Sprintf(`{"models":[{"name":%q,"model":%q,"size":5137025024,"digest":"a1b2","details":{"family":"qwen2"},"expires_at":"2099-01-01T00:00:00Z","size_vram":5137025024,"context_length":%d}]}`, model+":latest", model+":latest", tokens))
		s.Handle("POST /api/show", http.StatusOK, `{"modelfile":"FROM x","parameters":"stop \"<|im_end|>\"","template":"{{ .Prompt }}","details":{"family":"qwen2"},"model_info":{"general.architecture":"qwen2","qwen2.context_length":32768}}`)
	case llm.ServerLMStudio:
		s.Handle("GET /api/v0/models", http.StatusOK, fmt.Sprintf(`{"object":"list","data":[{"id":%q,"object":"model","type":"llm","publisher":"x","arch":"qwen2","compatibility_type":"gguf","quantization":"Q4_K_M","state":"loaded","max_context_length":32768,"loaded_context_length":%d}]}`, model, tokens))
	case llm.ServerLlamaCpp:
		s.Handle("GET /props", http.StatusOK, fmt.Sprintf(`{"default_generation_settings":{"n_ctx":%d,"params":{"n_predict":-1}},"total_slots":1,"model_path":"/models/x.gguf","chat_template":"x"}`, tokens))
	case llm.ServerVLLM:
		s.SetModels(fmt.Sprintf(`{"object":"list","data":[{"id":%q,"object":"model","created":1,"owned_by":"vllm","root":"x","parent":null,"max_model_len":%d}]}`, model, tokens))
	default:
		s.t.Fatalf("llmtest: ServeWindow: unknown server %q", server)
	}
}

// HandleFunc serves pattern with h (after recording the request in Probes), for
// answers Handle cannot script, such as a server that never answers.
func (s *Server) HandleFunc(pattern string, h http.HandlerFunc) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.probes = append(s.probes, recordProbe(r))
		s.mu.Unlock()
		h(w, r)
	})
}
