package app

import (
	"errors"

	"github.com/zalando/go-keyring"
)

// keyringService and keyringUser name the key in the OS keychain.
const (
	keyringService = "fixplan"
	keyringUser    = "api-key"
)

// OSKeyring stores the key in the OS keychain (Keychain, Credential Manager,
// Secret Service).
type OSKeyring struct{}

var _ KeyStore = OSKeyring{}

// Get returns the stored key ("" with keyring.ErrNotFound when none).
func (OSKeyring) Get() (string, error) { return keyring.Get(keyringService, keyringUser) }

// Set stores the key.
func (OSKeyring) Set(k string) error { return keyring.Set(keyringService, keyringUser, k) }

// Available probes the keychain: a lookup that fails for any reason other than
// "not found" means there is no usable keychain (Linux without Secret Service).
func (OSKeyring) Available() (bool, string) {
	_, err := keyring.Get(keyringService, keyringUser)
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return true, ""
	}
	return false, "no OS keychain is available here (on Linux it needs a Secret Service such as GNOME Keyring); set FIXPLAN_API_KEY or OPENAI_API_KEY instead"
}
