import { useEffect, useRef, useState, type ReactNode } from "react";
import { appVersion } from "../api/backend";
import type { EditFormat, Preset, Settings } from "../api/types";
import { OpenWithField } from "./OpenWithField";
import { useModal } from "./useModal";

type NumKey =
  | "timeout_seconds"
  | "max_tokens"
  | "context_budget"
  | "max_retries"
  | "context_window"
  | "price_input_per_mtok"
  | "price_output_per_mtok"
  | "max_tokens_per_plan"
  | "max_cost_per_plan"
  | "verify_attempts"
  | "check_timeout_seconds";

/** RANGES are the values the Go side accepts (session.Settings.Validate). */
const RANGES: Record<NumKey, { min: number; max?: number; int: boolean; text: string }> = {
  timeout_seconds: { min: 1, int: true, text: "a whole number of seconds, at least 1" },
  max_tokens: { min: 0, int: true, text: "a whole number, 0 (the provider's default) or more" },
  context_budget: { min: 1, int: true, text: "a whole number of bytes, at least 1" },
  max_retries: { min: 0, int: true, text: "a whole number, 0 or more" },
  context_window: { min: 0, int: true, text: "a whole number of tokens, 0 (ask the server) or more" },
  price_input_per_mtok: { min: 0, int: false, text: "a price, 0 (not set) or more" },
  price_output_per_mtok: { min: 0, int: false, text: "a price, 0 (not set) or more" },
  max_tokens_per_plan: { min: 0, int: true, text: "a whole number of tokens, 0 (no ceiling) or more" },
  max_cost_per_plan: { min: 0, int: false, text: "an amount, 0 (no ceiling) or more" },
  verify_attempts: { min: 0, max: 5, int: true, text: "a whole number from 0 to 5" },
  check_timeout_seconds: { min: 1, int: true, text: "a whole number of seconds, at least 1" },
};

/** invalid says what is wrong with a number typed in Settings ("" when it is fine). */
export function invalid(k: NumKey, raw: string): string {
  const r = RANGES[k];
  const v = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(v) || v < r.min || (r.max !== undefined && v > r.max) || (r.int && !Number.isInteger(v))) return `Must be ${r.text}.`;
  return "";
}

type Props = {
  settings: Settings;
  presets: Preset[];
  connection: string;
  /** approved lists the check commands approved for the open project (null: none open, or loading). */
  approved: string[] | null;
  onSave: (s: Settings, key: string) => void;
  onTest: () => void;
  onRevoke: (command: string) => void;
  onClose: () => void;
  /** onEdit is told when a field changes (an error of the last save no longer holds). */
  onEdit?: () => void;
  /** children: an error to show inside the dialog. */
  children?: ReactNode;
};

/** SettingsDialog edits the provider and verification; the key is write-only (only a hint is shown). */

/** EDIT_FORMAT_HINT says how each edit format asks the model to change existing files
 * (the select shows only the short name, so the choice is never cut off). */
const EDIT_FORMAT_HINT: Record<EditFormat, string> = {
  auto: "Whole small files, search/replace edits in large ones; when a model's search/replace edits keep failing, fixplan asks it for unified diffs instead.",
  whole: "The model rewrites each file it changes, whole.",
  search_replace: "The model sends search/replace pairs; each search must match the file.",
  diff: "The model sends a unified diff against the files as they are.",
};
export function SettingsDialog({ settings, presets, connection, approved, onSave, onTest, onRevoke, onClose, onEdit, children }: Props) {
  const [s, setS] = useState(settings);
  const [key, setKey] = useState("");
  const [version, setVersion] = useState("");
  // raw keeps what is typed in the number fields, so an invalid entry stays visible with its message.
  const [raw, setRaw] = useState<Partial<Record<NumKey, string>>>({});
  const box = useRef<HTMLDivElement>(null);
  useModal(box, onClose);
  useEffect(() => {
    appVersion().then(setVersion, () => {});
  }, []);
  // A change of a field (not the dialog opening) tells onEdit.
  const opened = useRef(true);
  const edited = useRef(onEdit);
  edited.current = onEdit;
  useEffect(() => {
    if (opened.current) {
      opened.current = false;
      return;
    }
    edited.current?.();
  }, [s, raw]);
  const errors = (Object.keys(RANGES) as NumKey[]).map((k) => [k, raw[k] === undefined ? "" : invalid(k, raw[k] ?? "")] as const).filter(([, m]) => m);
  const errorOf = (k: NumKey) => errors.find(([x]) => x === k)?.[1] ?? "";
  /** field is a number input with its inline message when the value is out of range. */
  const field = (k: NumKey, label: ReactNode, extra: { testid?: string; step?: string; hint?: string; title?: string } = {}) => {
    const msg = errorOf(k);
    return (
      <label title={extra.title}>
        {label}
        <input
          type="number"
          min={RANGES[k].min}
          max={RANGES[k].max}
          step={extra.step}
          data-testid={extra.testid}
          aria-invalid={msg ? true : undefined}
          aria-describedby={msg ? `err-${k}` : undefined}
          value={raw[k] ?? String(s[k] ?? 0)}
          onChange={(e) => {
            const v = e.target.value;
            setRaw({ ...raw, [k]: v });
            if (!invalid(k, v)) setS({ ...s, [k]: Number(v) });
          }}
        />
        {extra.hint && !msg && <span className="hint small muted">{extra.hint}</span>}
        {msg && (
          <span className="field-error small" id={`err-${k}`} data-testid="field-error" data-field={k}>
            {msg}
          </span>
        )}
      </label>
    );
  };
  return (
    <div className="modal-backdrop">
    <div className="dialog" role="dialog" aria-modal="true" aria-label="Settings" data-testid="settings-dialog" ref={box}>
      <h2>Settings</h2>
      <label>
        Provider
        <select
          value={s.provider}
          onChange={(e) => {
            const p = presets.find((x) => x.id === e.target.value);
            setS(p && p.id !== "custom" ? { ...s, provider: p.id, base_url: p.base_url, model: p.model } : { ...s, provider: e.target.value });
          }}
        >
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Base URL
        <input value={s.base_url} onChange={(e) => setS({ ...s, base_url: e.target.value })} />
      </label>
      <label>
        Model
        <input value={s.model} onChange={(e) => setS({ ...s, model: e.target.value })} />
      </label>
      <label>
        API key
        <input type="password" autoComplete="off" value={key} data-testid="api-key" placeholder={s.key_set ? `stored (${s.key_hint}, from ${s.key_source})` : "not set"} onChange={(e) => {
            setKey(e.target.value);
            onEdit?.();
          }} />
      </label>
      {!s.keychain_available && <p className="hint small">{s.keychain_note}</p>}
      <div className="grid">
        {field("timeout_seconds", "Timeout (s)")}
        {field("max_tokens", "Max tokens")}
        {field("context_budget", "Context budget (bytes)")}
        {field("max_retries", "Retries")}
        {field("context_window", "Context window (tokens)", {
          testid: "context-window",
          hint: "0 = ask the server",
          title: "Only for servers that do not say; 0 asks Ollama, LM Studio, llama.cpp or vLLM what they serve",
        })}
      </div>
      <div className="grid">
        {field("price_input_per_mtok", "Price in, per 1M tokens", { testid: "price-input", step: "any" })}
        {field("price_output_per_mtok", "Price out, per 1M tokens", { testid: "price-output", step: "any" })}
      </div>
      <p className="hint small muted">Prices are in your provider's currency; they are used only to show what a plan will cost and did cost (0: not shown).</p>
      <div className="grid">
        {field("max_tokens_per_plan", "Max tokens per plan", {
          testid: "max-tokens-per-plan",
          hint: "0 = no ceiling",
          title: "No request is sent that would take the plan's tokens, in and out, past this; the first one stops the plan, a later one ends it with what it has",
        })}
        {field("max_cost_per_plan", "Max cost per plan", {
          testid: "max-cost-per-plan",
          step: "any",
          hint: "0 = no ceiling; needs the prices",
          title: "No request is sent that would take the plan's cost at the prices above past this",
        })}
      </div>
      <label className="inline">
        <input type="checkbox" checked={s.stream} onChange={(e) => setS({ ...s, stream: e.target.checked })} /> Stream replies
      </label>
      <label className="inline">
        <input
          type="checkbox"
          data-testid="project-rules"
          checked={!s.no_project_rules}
          onChange={(e) => setS({ ...s, no_project_rules: !e.target.checked })}
        />{" "}
        Send the project's rules for AI tools (AGENTS.md, CLAUDE.md, .cursorrules, …)
      </label>
      <label>
        Edit format
        <select
          data-testid="edit-format"
          aria-describedby="edit-format-hint"
          value={s.edit_format || "auto"}
          onChange={(e) => setS({ ...s, edit_format: e.target.value as EditFormat })}
        >
          <option value="auto">Auto</option>
          <option value="whole">Whole file</option>
          <option value="search_replace">Search/replace pairs</option>
          <option value="diff">Unified diff</option>
        </select>
      </label>
      <p className="hint small muted" id="edit-format-hint" data-testid="edit-format-hint">
        {EDIT_FORMAT_HINT[(s.edit_format || "auto") as EditFormat] ?? ""}
      </p>
      <fieldset className="verify-settings">
        <legend>Verification</legend>
        <label className="inline">
          <input
            type="checkbox"
            role="switch"
            data-testid="verify-before-review"
            aria-checked={!!s.verify_before_review}
            checked={!!s.verify_before_review}
            onChange={(e) => setS({ ...s, verify_before_review: e.target.checked })}
          />{" "}
          Verify before review
        </label>
        <p className="hint small muted">
          Each plan is checked in a scratch copy of the project with the approved checks before you see it; your project is never touched. A plan
          that fails goes back to the model.
        </p>
        <div className="grid">
          {field("verify_attempts", "Repair attempts (0–5)", { testid: "verify-attempts" })}
          {field("check_timeout_seconds", "Check timeout (s)", { testid: "check-timeout" })}
        </div>
        <div className="approved-checks" data-testid="approved-checks">
          <span className="label">Approved checks for this project</span>
          {approved === null ? (
            <p className="muted small">Open a project to see its approved checks.</p>
          ) : approved.length === 0 ? (
            <p className="muted small" data-testid="approved-empty">
              None yet: tick a check in a plan's Verify panel to approve it.
            </p>
          ) : (
            <ul>
              {approved.map((c) => (
                <li key={c} className="row" data-testid="approved-check" data-command={c}>
                  <code className="cmd">{c}</code>
                  <span className="spacer" />
                  <button data-testid="revoke-check" aria-label={`Revoke ${c}`} onClick={() => onRevoke(c)}>
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </fieldset>
      <OpenWithField value={s.open_with ?? ""} onChange={(v) => setS({ ...s, open_with: v })} />
      {children}
      {connection && (
        <p className="connection" role="status">
          {connection}
        </p>
      )}
      <div className="row">
        <button onClick={onTest}>Test connection</button>
        <span className="spacer" />
        <button onClick={onClose}>Close</button>
        {errors.length > 0 && (
          <span className="field-error small" data-testid="save-blocked">
            Correct the {errors.length === 1 ? "value" : `${errors.length} values`} marked above to save.
          </span>
        )}
        <button
          className="primary"
          disabled={errors.length > 0}
          onClick={() => {
            onSave(s, key);
            setKey("");
          }}
        >
          Save
        </button>
      </div>
      {version && (
        <p className="hint small muted" data-testid="about">
          About: fixplan {version}
        </p>
      )}
    </div>
    </div>
  );
}
