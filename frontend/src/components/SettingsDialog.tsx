import { useEffect, useState, type ReactNode } from "react";
import { appVersion } from "../api/backend";
import type { EditFormat, Preset, Settings } from "../api/types";

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
  /** children: an error to show inside the dialog. */
  children?: ReactNode;
};

/** SettingsDialog edits the provider and verification; the key is write-only (only a hint is shown). */
export function SettingsDialog({ settings, presets, connection, approved, onSave, onTest, onRevoke, onClose, children }: Props) {
  const [s, setS] = useState(settings);
  const [key, setKey] = useState("");
  const [version, setVersion] = useState("");
  useEffect(() => {
    appVersion().then(setVersion, () => {});
  }, []);
  const num = (k: keyof Settings) => (e: React.ChangeEvent<HTMLInputElement>) => setS({ ...s, [k]: Number(e.target.value) });
  return (
    <div className="dialog" role="dialog" aria-label="Settings" data-testid="settings-dialog">
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
        <input type="password" autoComplete="off" value={key} data-testid="api-key" placeholder={s.key_set ? `stored (${s.key_hint}, from ${s.key_source})` : "not set"} onChange={(e) => setKey(e.target.value)} />
      </label>
      {!s.keychain_available && <p className="hint small">{s.keychain_note}</p>}
      <div className="grid">
        <label>
          Timeout (s)
          <input type="number" min={5} value={s.timeout_seconds} onChange={num("timeout_seconds")} />
        </label>
        <label>
          Max tokens
          <input type="number" min={0} value={s.max_tokens} onChange={num("max_tokens")} />
        </label>
        <label>
          Context budget (bytes)
          <input type="number" min={4096} value={s.context_budget} onChange={num("context_budget")} />
        </label>
        <label>
          Retries
          <input type="number" min={0} value={s.max_retries} onChange={num("max_retries")} />
        </label>
        <label title="Only for servers that do not say; 0 asks Ollama, LM Studio, llama.cpp or vLLM what they serve">
          Context window (tokens, 0 = ask the server)
          <input type="number" min={0} data-testid="context-window" value={s.context_window ?? 0} onChange={num("context_window")} />
        </label>
        <label>
          Price per 1M tokens in
          <input type="number" min={0} step="any" data-testid="price-input" value={s.price_input_per_mtok ?? 0} onChange={num("price_input_per_mtok")} />
        </label>
        <label>
          Price per 1M tokens out
          <input type="number" min={0} step="any" data-testid="price-output" value={s.price_output_per_mtok ?? 0} onChange={num("price_output_per_mtok")} />
        </label>
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
        <select data-testid="edit-format" value={s.edit_format || "auto"} onChange={(e) => setS({ ...s, edit_format: e.target.value as EditFormat })}>
          <option value="auto">Auto (whole small files, search/replace in large ones; learns from failures)</option>
          <option value="whole">Whole file</option>
          <option value="search_replace">Search/replace pairs</option>
          <option value="diff">Unified diff</option>
        </select>
      </label>
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
          <label>
            Repair attempts (0–5)
            <input type="number" min={0} max={5} data-testid="verify-attempts" value={s.verify_attempts} onChange={num("verify_attempts")} />
          </label>
          <label>
            Check timeout (s)
            <input type="number" min={1} data-testid="check-timeout" value={s.check_timeout_seconds} onChange={num("check_timeout_seconds")} />
          </label>
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
        <button
          className="primary"
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
  );
}
