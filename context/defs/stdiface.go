package defs

import (
	"go/types"
	"slices"
	"strings"
)

// The standard library's interfaces. An import from outside the project is an
// opaque stand-in (gotypes.go): a value of one of its types is known not to be
// the project's, so nothing is looked up for its methods. For the interfaces
// below that is wrong — next.ServeHTTP(w, r) on an http.Handler, w.Write on an
// io.Writer, h.Handle on a slog.Handler run the project's own implementations
// (a middleware chain, a writer wrapper). A call of one of these interfaces'
// methods resolves to the project's methods of that name on its checked,
// non-interface types (the stand-in has no method set to check them against,
// so the name is the test; no other package's type ever matches).

// stdInterfaces maps "import/path.Type" to the methods of that interface.
var stdInterfaces = map[string]string{
	"net/http.Handler":                    "ServeHTTP",
	"net/http.RoundTripper":               "RoundTrip",
	"net/http.ResponseWriter":             "Header Write WriteHeader",
	"net/http.Flusher":                    "Flush",
	"net/http.Hijacker":                   "Hijack",
	"net/http.CookieJar":                  "SetCookies Cookies",
	"io.Reader":                           "Read",
	"io.Writer":                           "Write",
	"io.Closer":                           "Close",
	"io.Seeker":                           "Seek",
	"io.ReadCloser":                       "Read Close",
	"io.WriteCloser":                      "Write Close",
	"io.ReadWriter":                       "Read Write",
	"io.ReadWriteCloser":                  "Read Write Close",
	"io.ReadSeeker":                       "Read Seek",
	"io.ReaderAt":                         "ReadAt",
	"io.WriterAt":                         "WriteAt",
	"io.ReaderFrom":                       "ReadFrom",
	"io.WriterTo":                         "WriteTo",
	"io.ByteReader":                       "ReadByte",
	"io.ByteScanner":                      "ReadByte UnreadByte",
	"io.RuneReader":                       "ReadRune",
	"io.RuneScanner":                      "ReadRune UnreadRune",
	"io.StringWriter":                     "WriteString",
	"io/fs.FS":                            "Open",
	"io/fs.File":                          "Stat Read Close",
	"io/fs.ReadDirFS":                     "Open ReadDir",
	"io/fs.ReadFileFS":                    "Open ReadFile",
	"io/fs.StatFS":                        "Open Stat",
	"fmt.Stringer":                        "String",
	"fmt.GoStringer":                      "GoString",
	"fmt.Formatter":                       "Format",
	"fmt.State":                           "Write Width Precision Flag",
	"sort.Interface":                      "Len Less Swap",
	"container/heap.Interface":            "Len Less Swap Push Pop",
	"encoding.TextMarshaler":              "MarshalText",
	"encoding.TextUnmarshaler":            "UnmarshalText",
	"encoding.BinaryMarshaler":            "MarshalBinary",
	"encoding.BinaryUnmarshaler":          "UnmarshalBinary",
	"encoding/json.Marshaler":             "MarshalJSON",
	"encoding/json.Unmarshaler":           "UnmarshalJSON",
	"encoding/xml.Marshaler":              "MarshalXML",
	"encoding/xml.Unmarshaler":            "UnmarshalXML",
	"flag.Value":                          "String Set",
	"flag.Getter":                         "String Set Get",
	"database/sql.Scanner":                "Scan",
	"database/sql/driver.Valuer":          "Value",
	"database/sql/driver.Driver":          "Open",
	"database/sql/driver.Conn":            "Prepare Close Begin",
	"database/sql/driver.Stmt":            "Close NumInput Exec Query",
	"database/sql/driver.Rows":            "Columns Close Next",
	"log/slog.Handler":                    "Enabled Handle WithAttrs WithGroup",
	"log/slog.LogValuer":                  "LogValue",
	"hash.Hash":                           "Write Sum Reset Size BlockSize",
	"net.Conn":                            "Read Write Close LocalAddr RemoteAddr SetDeadline SetReadDeadline SetWriteDeadline",
	"net.Listener":                        "Accept Close Addr",
	"net.Addr":                            "Network String",
	"go/ast.Visitor":                      "Visit",
	"go/ast.Node":                         "Pos End",
	"image.Image":                         "ColorModel Bounds At",
	"image/draw.Image":                    "ColorModel Bounds At Set",
	"context.Context":                     "Deadline Done Err Value",
	"text/template/parse.Node":            "Type String Position",
	"crypto.Signer":                       "Public Sign",
	"crypto.Decrypter":                    "Public Decrypt",
	"net/http.FileSystem":                 "Open",
	"net/http.File":                       "Close Read Seek Readdir Stat",
	"runtime.Error":                       "Error RuntimeError",
	"os.Signal":                           "String Signal",
	"encoding/gob.GobEncoder":             "GobEncode",
	"encoding/gob.GobDecoder":             "GobDecode",
	"compress/flate.Resetter":             "Reset",
	"mime/multipart.File":                 "Read ReadAt Seek Close",
	"net/rpc.ClientCodec":                 "WriteRequest ReadResponseHeader ReadResponseBody Close",
	"net/rpc.ServerCodec":                 "ReadRequestHeader ReadRequestBody WriteResponse Close",
	"expvar.Var":                          "String",
	"net/http/cookiejar.PublicSuffixList": "PublicSuffix String",
}

// maxStdImpls is how many project methods one call of a standard interface's
// method resolves to; with more (a project with a dozen Write methods), which
// one runs is not known, and the call is looked up by name only, ranked after
// the typed hits.
const maxStdImpls = 4

// stdInterfaceHas reports whether the standard interface pkgPath.typ has the
// method name.
func stdInterfaceHas(pkgPath, typ, name string) bool {
	ms, ok := stdInterfaces[pkgPath+"."+typ]
	return ok && slices.Contains(strings.Fields(ms), name)
}

// methodsNamed returns the project's methods called name on the checked
// packages' non-interface types (and their pointers), by file and line.
func (gt *goTyped) methodsNamed(name string) []goTarget {
	k := namesKey{name, len(gt.own)} // (read again when a package was checked since)
	if out, ok := gt.idx().methods[k]; ok {
		return out
	}
	out := gt.concreteMethods(func(pkg *types.Package, t types.Type) *types.Func {
		m, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, pkg, name)
		fn, ok := m.(*types.Func)
		if !ok || fn.Pkg() == nil || !gt.own[fn.Pkg()] {
			return nil
		}
		return fn
	})
	gt.idx().methods[k] = out
	return out
}
