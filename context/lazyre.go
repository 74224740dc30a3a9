package codectx

import "fixplan/internal/lazyre"

// The package's patterns compile on their first use (see internal/lazyre).
type lazyRE = lazyre.RE

func lazyRegexp(src string) *lazyRE { return lazyre.New(src) }
