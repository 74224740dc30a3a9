package app

// Version is fixplan's version for the About line ("dev" for an unstamped build).
// The same version is saved in every plan this app makes.
func (a *App) Version() string {
	if a.d.Version == "" {
		return "dev"
	}
	return a.d.Version
}
