// The editor for a proposal, in a chunk of its own: CodeMirror 6 is loaded only
// when the user presses Edit (ChangeList imports this module lazily).
import { useEffect, useRef, useState } from "react";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { MergeView } from "@codemirror/merge";
import type { Proposed } from "../api/types";
import { useModal } from "./useModal";

type Props = {
  proposed: Proposed & { text: string; error?: string };
  onSave: (text: string) => void;
  onCancel: () => void;
};

/** ProposalEditor lets the user edit the proposed new text of a file: for a changed
 * file a merge view (the file as it is, read-only, beside the editable proposal), for
 * a new file a plain editor. Save sends the text to be checked and previewed again;
 * Ctrl/Cmd+S saves, Escape cancels. */
export default function ProposalEditor({ proposed, onSave, onCancel }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const view = useRef<EditorView | null>(null);
  const [confirming, setConfirming] = useState(false);
  const save = useRef(onSave);
  save.current = onSave;
  const text = () => view.current?.state.doc.toString() ?? proposed.text;
  // Escape never throws typed text away unasked: with changes it asks first.
  const escape = () => {
    if (confirming) {
      setConfirming(false);
      view.current?.focus();
    } else if (text() !== proposed.text) setConfirming(true);
    else onCancel();
  };
  const cancel = useRef(escape);
  cancel.current = escape;
  useModal(box, () => cancel.current());
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (!host.current) return;
    const keys = keymap.of([
      { key: "Mod-s", preventDefault: true, run: (v) => (save.current(v.state.doc.toString()), true) },
      { key: "Escape", run: () => (cancel.current(), true) },
      ...defaultKeymap,
      ...historyKeymap,
    ]);
    const editable: Extension[] = [lineNumbers(), history(), keys, EditorView.lineWrapping, EditorView.contentAttributes.of({ "aria-label": `Proposed text of ${proposed.path}` })];
    if (proposed.before === "") {
      const v = new EditorView({ state: EditorState.create({ doc: proposed.text, extensions: editable }), parent: host.current });
      view.current = v;
      v.focus();
      return () => v.destroy();
    }
    const mv = new MergeView({
      a: { doc: proposed.before, extensions: [lineNumbers(), EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping] },
      b: { doc: proposed.text, extensions: editable },
      parent: host.current,
      gutter: true,
    });
    view.current = mv.b;
    mv.b.focus();
    return () => mv.destroy();
  }, [proposed.path, proposed.before, proposed.text]);
  const reset = () => {
    const v = view.current;
    if (v) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: proposed.after } });
  };
  return (
    <div className="editor-backdrop" role="dialog" aria-modal="true" aria-label={`Edit ${proposed.path}`} data-testid="proposal-editor" ref={box}>
      <div className="editor-dialog">
        <div className="row">
          <strong>
            Edit the proposal for <code>{proposed.path}</code>
          </strong>
          <span className="spacer" />
          <span className="muted small">{proposed.before === "" ? "new file" : "left: the file now · right: what will be written (editable)"}</span>
        </div>
        <div className="editor-host" ref={host} />
        {proposed.error && (
          <div className="alert" role="alert" data-testid="editor-error">
            Not saved: {proposed.error}
          </div>
        )}
        {confirming && (
          <div className="alert row" role="alertdialog" aria-label="Discard your edits?" data-testid="editor-confirm-discard">
            <span>
              Discard your edits to <code>{proposed.path}</code>?
            </span>
            <span className="spacer" />
            <button ref={keep} onClick={escape} data-testid="editor-keep-editing">
              Keep editing
            </button>
            <button onClick={onCancel} data-testid="editor-discard">
              Discard edits
            </button>
          </div>
        )}
        <div className="row">
          <span className="muted small">Your text is checked like the model's and previewed again before anything is written. Ctrl+S saves, Esc cancels (it asks first if you changed the text).</span>
          <span className="spacer" />
          <button onClick={reset} data-testid="editor-reset" title="Start again from the proposal (with the hunks you accepted)">
            Reset
          </button>
          <button onClick={onCancel} data-testid="editor-cancel">
            Cancel
          </button>
          <button className="primary" onClick={() => onSave(text())} data-testid="editor-save">
            Save
          </button>
        </div>
      </div>
    </div>
  );
}
