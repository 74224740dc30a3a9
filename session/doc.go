// Package session is fixplan's fix loop: gather base context, ask the model for one
// strict-JSON plan, validate and repair once, fulfil up to two rounds of context
// requests, preview the changes, and later apply, undo and verify them. The CLI and
// the desktop app are thin edges over it.
package session
