package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Form is the shape of the reply Parse accepted.
type Form string

// The accepted reply forms (docs/CONTRACT.md §2.5).
const (
	FormStrict        Form = "strict"         // the full strict object
	FormPartial       Form = "partial"        // the strict object with fields missing
	FormLegacyActions Form = "legacy-actions" // a bare array of actions
	FormLegacyObject  Form = "legacy-object"  // {actions, memory_patch} with memory_patch as an object
)

// Parsed is a validated, normalised model reply.
type Parsed struct {
	Plan Plan `json:"plan"`
	Form Form `json:"form"`
	// Extracted says how the JSON was found ("" when the reply was exactly one value).
	Extracted string `json:"extracted"`
	// Warnings are things dropped or adjusted without failing: unknown memory keys,
	// unknown top-level fields, extra questions.
	Warnings []string `json:"warnings"`
}

// ParseError is a reply that could not be turned into a valid plan. Issues are short
// "instance path: message" lines meant to be quoted back to the model in one repair request.
type ParseError struct {
	Code      Code     `json:"code"` // ErrJSONExtract or ErrSchemaValidation
	Issues    []string `json:"issues"`
	Truncated bool     `json:"truncated"` // the reply was cut off mid-JSON
	Phantom   bool     `json:"phantom"`   // the reply described a plan in prose
}

func (e *ParseError) Error() string {
	what := "invalid plan"
	if e.Code == ErrJSONExtract {
		what = "no usable JSON in the reply"
	}
	s := string(e.Code) + ": " + what
	if len(e.Issues) > 0 {
		s += ": " + e.Issues[0]
		if len(e.Issues) > 1 {
			s += fmt.Sprintf(" (and %d more)", len(e.Issues)-1)
		}
	}
	return s
}

// Issues returns the issues of a *ParseError in err's chain, or nil.
func Issues(err error) []string {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.Issues
	}
	return nil
}

// maxQuestions is the contract's limit on questions per plan.
const maxQuestions = 2

// Parse turns a raw model reply into a validated plan. It accepts the strict object,
// the object with fields missing, a bare array of actions, and the legacy
// {actions, memory_patch} object (memory_patch as an object); it extracts the one
// JSON value from code fences or prose when unambiguous. It never returns an empty
// plan silently: an empty, truncated, ambiguous, prose-only or invalid reply is a
// *ParseError listing the issues.
func Parse(raw []byte) (*Parsed, error) {
	val, how, err := extract(raw)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(val))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, extractErr("the JSON could not be decoded: " + err.Error())
	}
	// Some servers double-encode: the answer is a JSON string holding the object.
	if inner, ok := v.(string); ok && planLike([]byte(strings.TrimSpace(inner))) {
		dec := json.NewDecoder(strings.NewReader(inner))
		dec.UseNumber()
		var iv any
		if dec.Decode(&iv) == nil {
			v, how = iv, "decoded from a JSON string"
		}
	}
	out := &Parsed{Extracted: how}
	obj, err := normalise(v, out)
	if err != nil {
		return nil, err
	}
	issues, err := validateSchema(obj)
	if err != nil {
		return nil, err
	}
	if len(issues) > 0 {
		return nil, &ParseError{Code: ErrSchemaValidation, Issues: issues}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("re-encode plan: %w", err)
	}
	if err := json.Unmarshal(b, &out.Plan); err != nil {
		return nil, &ParseError{Code: ErrSchemaValidation, Issues: []string{"/: " + err.Error()}}
	}
	out.Plan.fillNil()
	if len(out.Plan.Questions) > maxQuestions {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the model asked %d questions; only the first %d are shown", len(out.Plan.Questions), maxQuestions))
		out.Plan.Questions = out.Plan.Questions[:maxQuestions]
	}
	if issues := out.Plan.check(); len(issues) > 0 {
		return nil, &ParseError{Code: ErrSchemaValidation, Issues: capIssues(issues)}
	}
	return out, nil
}

// normalise turns any accepted form into the full strict object (a map ready for
// schema validation), recording the form and warnings in out.
func normalise(v any, out *Parsed) (map[string]any, error) {
	var obj map[string]any
	switch t := v.(type) {
	case []any:
		out.Form = FormLegacyActions
		obj = map[string]any{"proposed_changes": map[string]any{"actions": t}}
	case map[string]any:
		obj = t
		out.Form = FormStrict
		if acts, ok := obj["actions"]; ok {
			if _, hasMode := obj["mode"]; !hasMode {
				out.Form = FormLegacyObject
			}
			pc, _ := obj["proposed_changes"].(map[string]any)
			if pc == nil {
				pc = map[string]any{}
				obj["proposed_changes"] = pc
			}
			if _, has := pc["actions"]; has {
				out.Warnings = append(out.Warnings, "root \"actions\" ignored: proposed_changes.actions is present")
			} else {
				pc["actions"] = acts
			}
			delete(obj, "actions")
		}
	default:
		return nil, extractErr("the reply is a JSON " + jsonKind(v) + "; answer with one JSON object")
	}
	var unknown []string
	for k := range obj {
		if _, ok := topDefaults[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		out.Warnings = append(out.Warnings, fmt.Sprintf("unknown field %q ignored", k))
		delete(obj, k)
	}
	missing := false
	for k, def := range topDefaults {
		if _, ok := obj[k]; !ok {
			obj[k] = def()
			missing = true
		}
	}
	if missing && out.Form == FormStrict {
		out.Form = FormPartial
	}
	if pc, ok := obj["proposed_changes"].(map[string]any); ok {
		fill(pc, map[string]func() any{"patch": null, "actions": list, "commands_to_run": list})
		if acts, ok := pc["actions"].([]any); ok {
			for _, a := range acts {
				if am, ok := a.(map[string]any); ok {
					fill(am, map[string]func() any{"content": null, "edits": null})
					if k, ok := am["kind"].(string); ok {
						am["kind"] = strings.ToUpper(strings.TrimSpace(k))
					}
					normaliseEdits(am["edits"])
					// An UPDATE_FILE carrying only edits is the targeted form.
					if es, ok := am["edits"].([]any); ok && len(es) > 0 && am["kind"] == string(UpdateFile) && am["content"] == nil {
						am["kind"] = string(EditFile)
					}
				}
			}
		}
	}
	if reqs, ok := obj["context_requests"].([]any); ok {
		for _, r := range reqs {
			if rm, ok := r.(map[string]any); ok {
				fill(rm, map[string]func() any{"path": null, "start_line": null, "end_line": null,
					"query": null, "glob": null, "source": null, "last_n": null})
			}
		}
	}
	obj["memory_patch"] = normaliseMemory(obj["memory_patch"], out)
	return obj, nil
}

// editAliases are the names other tools give the two halves of a pair
// (str_replace tools, Aider's SEARCH/REPLACE blocks, find/replace).
var editAliases = map[string][]string{
	"search":  {"old_str", "old_string", "old", "find", "original", "SEARCH"},
	"replace": {"new_str", "new_string", "new", "replacement", "updated", "REPLACE"},
}

// normaliseEdits renames the aliases of search and replace in each pair, when
// the pair does not already use the schema's names.
func normaliseEdits(v any) {
	es, _ := v.([]any)
	for _, e := range es {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		for name, aliases := range editAliases {
			if _, has := m[name]; has {
				continue
			}
			for _, a := range aliases {
				if x, ok := m[a]; ok {
					m[name] = x
					delete(m, a)
					break
				}
			}
		}
	}
}

func null() any { return nil }
func list() any { return []any{} }
func str() any  { return "" }

var topDefaults = map[string]func() any{
	"mode": func() any { return string(ModeFixPlan) }, "summary": str, "questions": list,
	"context_requests": list, "plan": list, "proposed_changes": null, "patch": null,
	"commands_to_run": list, "verification": list, "risks": list, "rollback": list, "memory_patch": list,
}

func fill(m map[string]any, defs map[string]func() any) {
	for k, def := range defs {
		if _, ok := m[k]; !ok {
			m[k] = def()
		}
	}
}

// normaliseMemory accepts memory_patch as [{key, value}] or as the seed's object form,
// drops keys outside the whitelist with a warning, and turns an object-valued
// project.log_paths into the schema's [{source, path}] list.
func normaliseMemory(v any, out *Parsed) any {
	var entries []any
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			entries = append(entries, map[string]any{"key": k, "value": t[k]})
		}
	case []any:
		entries = t
	default:
		return v // left for the schema to report
	}
	kept := []any{}
	for _, e := range entries {
		m, ok := e.(map[string]any)
		if !ok {
			kept = append(kept, e)
			continue
		}
		k, isStr := m["key"].(string)
		if isStr && !isMemoryKey(k) {
			out.Warnings = append(out.Warnings, fmt.Sprintf("memory_patch: key %q is not in the whitelist; ignored", k))
			continue
		}
		if lp, ok := m["value"].(map[string]any); ok && k == KeyLogPaths {
			srcs := make([]string, 0, len(lp))
			for s := range lp {
				srcs = append(srcs, s)
			}
			sort.Strings(srcs)
			arr := []any{}
			for _, s := range srcs {
				arr = append(arr, map[string]any{"source": s, "path": lp[s]})
			}
			m["value"] = arr
		}
		kept = append(kept, m)
	}
	return kept
}

func isMemoryKey(k string) bool {
	for _, m := range MemoryKeys {
		if m == k {
			return true
		}
	}
	return false
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "value"
}

// fillNil replaces nil slices with empty ones so JSON output always carries arrays.
func (p *Plan) fillNil() {
	for _, s := range []*[]string{&p.Questions, &p.CommandsToRun, &p.Verification, &p.Risks, &p.Rollback} {
		if *s == nil {
			*s = []string{}
		}
	}
	if p.ContextRequests == nil {
		p.ContextRequests = []ContextRequest{}
	}
	if p.Plan == nil {
		p.Plan = []Step{}
	}
	if p.MemoryPatch == nil {
		p.MemoryPatch = []MemoryEntry{}
	}
	if pc := p.ProposedChanges; pc != nil {
		if pc.Actions == nil {
			pc.Actions = []Action{}
		}
		if pc.CommandsToRun == nil {
			pc.CommandsToRun = []string{}
		}
	}
}
