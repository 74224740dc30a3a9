//go:build race

package openai

// raceDetector: under the race detector sync.Pool drops its items at random, so
// regexp (used per SSE line by go-openai) allocates afresh on every call and
// TotalAlloc measures the detector rather than the client.
const raceDetector = true
