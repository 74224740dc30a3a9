/** RecoveryNotice says what opening the project recovered or set aside, one
 * message a line, and leads to the Journals where each one can be inspected. */
export function RecoveryNotice({ messages, onJournals, onDismiss }: { messages: string[]; onJournals: () => void; onDismiss: () => void }) {
  return (
    <section className="notice" role="status" aria-label="Recovery" data-testid="recovery">
      <div className="notice-head">
        <strong>Recovery</strong>
        <span className="spacer" />
        <button data-testid="recovery-journals" onClick={onJournals}>
          Journals…
        </button>
        <button className="link" onClick={onDismiss} aria-label="Dismiss the recovery notice">
          ×
        </button>
      </div>
      <ul className="notice-lines">
        {messages.map((m, i) => (
          <li key={i} data-testid="recovery-line">
            {m}
          </li>
        ))}
      </ul>
    </section>
  );
}
