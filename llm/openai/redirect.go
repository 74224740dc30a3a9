package openai

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"fixplan/llm"
)

// maxRedirects is how many same-origin redirects one request follows (Go's own
// default).
const maxRedirects = 10

// origin is a URL's scheme, host and port, lower-cased, with the scheme's default
// port made explicit ("https://example.com" and "https://example.com:443" are one
// origin).
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// sameOriginOnly is the chat client's redirect policy. The API key travels in the
// Authorization header, and Go's client keeps that header on a redirect to the
// same host name even when the port (another program on that machine) or the
// scheme (plain http) differs. So a redirect is followed only when it stays on the
// configured base URL's scheme, host and port; any other is refused with an error
// that names where the provider wanted to send the request (without its query),
// so the user can set the base URL to that address.
func sameOriginOnly(base *url.URL) func(*http.Request, []*http.Request) error {
	want := origin(base)
	return func(req *http.Request, via []*http.Request) error {
		if origin(req.URL) != want {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			to := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path}
			return &llm.Error{Kind: llm.KindBadRequest, StatusCode: status,
				Message: fmt.Sprintf("the provider redirected to %s, another address than the base URL %s; fixplan does not send the API key there — set the base URL to the final address if you trust it",
					to.String(), want)}
		}
		if len(via) >= maxRedirects {
			return &llm.Error{Kind: llm.KindBadRequest, Message: fmt.Sprintf("the provider redirected %d times; set the base URL to the final address", len(via))}
		}
		return nil
	}
}
