package session

import "fixplan/llm/openai"

// NewModel is the one factory of the model client from settings: the client of
// any OpenAI-compatible endpoint (llm/openai) with st's base URL, model, timeout,
// reply cap, retries and streaming, and key (the window's keychain or the
// environment; the edge finds it). A provider that needs a key without one, or a
// base URL that is not http(s), is refused first with a coded error (MissingKey);
// a configuration the client refuses returns the client's own error, which each
// edge words (the CLI as ERR_CONFIG naming its flags, the window as it is).
func NewModel(st Settings, key string) (Model, error) {
	if err := MissingKey(st, key); err != nil {
		return nil, err
	}
	c, err := openai.New(openai.Config{
		BaseURL: st.BaseURL, Model: st.Model, APIKey: key, Timeout: st.Timeout(),
		MaxTokens: st.MaxTokens, MaxRetries: st.MaxRetries, Stream: st.Stream,
	})
	if err != nil {
		return nil, err // not a nil *Client in a Model, which would not compare equal to nil
	}
	return c, nil
}
