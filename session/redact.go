package session

import (
	"encoding/json"
	"reflect"
	"strings"

	"fixplan/llm"
	"fixplan/plan"
	"fixplan/redact"
)

// What leaves the machine passes through redact.Text and the literal secrets
// of Config.Secrets (the API key): the problem, the answers and captured logs as
// they come in, every message as it is sent, and the record as it is saved.
// Context sections and request results come redacted from the gatherer (files
// whole, before their lines are cut out); they get the literal pass too. The
// plan itself (the model's proposed changes) gets only the literal pass: it is
// what Apply writes (see redactRecord).

// redact replaces secret-looking values and the configured secrets in s.
func (pl *Planner) redact(s string) string {
	if s == "" {
		return s
	}
	s, _ = redact.Text(s)
	s, _ = redact.Values(s, pl.cfg.Secrets...)
	return s
}

// redactInput redacts what the user typed or the app captured; attached log files
// are read (and redacted whole) by the gatherer.
func (pl *Planner) redactInput(in plan.ProblemInput) plan.ProblemInput {
	in.Problem = pl.redact(in.Problem)
	if in.Answers != nil {
		answers := make([]string, len(in.Answers))
		for i, a := range in.Answers {
			answers[i] = pl.redact(a)
		}
		in.Answers = answers
	}
	if in.Logs != nil {
		logs := make([]plan.LogSource, len(in.Logs))
		for i, l := range in.Logs {
			l.Text = pl.redact(l.Text)
			logs[i] = l
		}
		in.Logs = logs
	}
	return in
}

// redactMessages returns msgs with every content redacted.
func (pl *Planner) redactMessages(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, len(msgs))
	for i, m := range msgs {
		m.Content = pl.redact(m.Content)
		out[i] = m
	}
	return out
}

// redactRecord redacts the record before it is saved (and returned, so printed).
//
// The pattern rules (redact.Text) run on what the model wrote outside a
// plan: the raw reply of a failed record, the issues, the warnings. A plan is
// left to them: it is what Apply writes, and a false positive there would
// corrupt a change.
//
// The configured secrets (the API key) are replaced by value in every string of
// the record, whatever fields it has or gains: the plan's summary, steps,
// questions, risks and commands, the proposed file contents and patches, the
// previewed diffs, context requests and results, memory values, verification
// output. A proposed content that held the key now holds [REDACTED], which
// Apply refuses to write over a file (apply/changes.go, writesRedacted), so the
// key reaches neither the saved plan nor the project; the change's preview says
// so in its flags.
func (pl *Planner) redactRecord(rec *plan.Record) {
	rec.Raw = pl.redact(rec.Raw)
	for i := range rec.Issues {
		rec.Issues[i] = pl.redact(rec.Issues[i])
	}
	for i := range rec.Warnings {
		rec.Warnings[i] = pl.redact(rec.Warnings[i])
	}
	secrets := literalSecrets(pl.cfg.Secrets)
	if len(secrets) == 0 {
		return
	}
	var marked []int // changes whose diff held a secret
	for i, c := range rec.Changes {
		if _, n := redact.Values(c.Diff, secrets...); n > 0 {
			marked = append(marked, i)
		}
	}
	redactValuesIn(reflect.ValueOf(rec).Elem(), secrets)
	for _, i := range marked {
		rec.Changes[i].Flags = append(rec.Changes[i].Flags, secretInChangeFlag)
	}
}

// shownRedactor is how previews show the project's text (apply.Options.Redact):
// whole files redacted as the context reader redacts them (redact.File),
// and the configured secrets by value, so the diffs a plan record keeps hold no
// secret of the project (context, removed lines, a moved file's content, a hand
// edit) while apply still compares them with previews made the same way.
func shownRedactor(configured []string) func(path, text string) string {
	secrets := knownSecrets(configured)
	return func(path, text string) string {
		text, _ = redact.File(path, text)
		text, _ = redact.Values(text, secrets...)
		return text
	}
}

// hiddenFrom is apply.Options.Hidden: a file the model may not read (the read
// path's decision, MayQuote) is not quoted by a preview, so neither the plan
// record nor the re-plan's OPERATOR REVIEW holds its lines; a file that does not
// exist yet is the model's own text.
func hiddenFrom(g interface{ MayQuote(string) error }) func(string) bool {
	return func(rel string) bool {
		err := g.MayQuote(rel)
		return err != nil && plan.CodeOf(err) != plan.ErrNotFound
	}
}

// secretInChangeFlag is the preview's flag on a change that held the API key.
const secretInChangeFlag = "writes [REDACTED]: the model put the configured API key in this change, and fixplan replaced it with the mark; " +
	"applying it would write the mark — untick this file or edit it by hand"

// literalSecrets are the configured secrets RedactValues replaces, each also as
// JSON escapes it (json.RawMessage values, such as memory entries, hold the
// escaped form; a model may escape '/' as `\/`).
func literalSecrets(values []string) []string {
	var out []string
	for _, v := range values {
		if len(v) < redact.MinLiteralSecret || strings.ContainsAny(v, "\r\n") {
			continue
		}
		out = append(out, v)
		b, _ := json.Marshal(v)
		esc := string(b[1 : len(b)-1])
		if esc != v {
			out = append(out, esc)
		}
		if strings.Contains(esc, "/") {
			out = append(out, strings.ReplaceAll(esc, "/", `\/`))
		}
	}
	return out
}

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// redactValuesIn replaces the secrets in every string reachable from v (a
// settable value): struct fields, slices and arrays, pointers, maps, and
// json.RawMessage. Unexported fields (time.Time's) are left alone.
func redactValuesIn(v reflect.Value, secrets []string) {
	switch v.Kind() {
	case reflect.String:
		if s, n := redact.Values(v.String(), secrets...); n > 0 && v.CanSet() {
			v.SetString(s)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			redactValuesIn(v.Elem(), secrets)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				redactValuesIn(f, secrets)
			}
		}
	case reflect.Slice:
		if v.Type() == rawMessageType {
			if s, n := redact.Values(string(v.Bytes()), secrets...); n > 0 && v.CanSet() {
				v.SetBytes([]byte(s))
			}
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // other bytes: none in a record
		}
		for i := 0; i < v.Len(); i++ {
			redactValuesIn(v.Index(i), secrets)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			redactValuesIn(v.Index(i), secrets)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			redactValuesIn(e, secrets)
			v.SetMapIndex(k, e)
		}
	}
}
