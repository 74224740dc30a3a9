package session

import (
	codectx "fixplan/context"
	"fixplan/llm"
	"fixplan/plan"
)

// What leaves the machine passes through codectx.Redact and the literal secrets
// of Config.Secrets (the API key): the problem, the answers and captured logs as
// they come in, every message as it is sent, and the record as it is saved.
// Context sections and request results come redacted from the gatherer (files
// whole, before their lines are cut out); they get the literal pass too. The
// plan itself (the model's proposed changes) is left as the model wrote it: it is
// what Apply writes.

// redact replaces secret-looking values and the configured secrets in s.
func (pl *Planner) redact(s string) string {
	if s == "" {
		return s
	}
	s, _ = codectx.Redact(s)
	s, _ = codectx.RedactValues(s, pl.cfg.Secrets...)
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

// redactRecord redacts what a record keeps besides the plan: the raw reply of a
// failed record, issues, warnings, and (for the configured secrets) the context
// sent.
func (pl *Planner) redactRecord(rec *plan.Record) {
	rec.Raw = pl.redact(rec.Raw)
	for i := range rec.Issues {
		rec.Issues[i] = pl.redact(rec.Issues[i])
	}
	for i := range rec.Warnings {
		rec.Warnings[i] = pl.redact(rec.Warnings[i])
	}
	values := func(s string) string {
		s, _ = codectx.RedactValues(s, pl.cfg.Secrets...)
		return s
	}
	for i := range rec.Base.Sections {
		rec.Base.Sections[i].Body = values(rec.Base.Sections[i].Body)
	}
	for _, rd := range rec.Rounds {
		for i := range rd.Results {
			rd.Results[i].Text = values(rd.Results[i].Text)
			rd.Results[i].Error = values(rd.Results[i].Error)
		}
	}
}
