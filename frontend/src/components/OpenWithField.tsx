type Props = { value: string; onChange: (v: string) => void };

/** EXAMPLES are commands for well-known editors, offered as the field is typed in. */
const EXAMPLES = ["code -g {file}:{line}", "subl {file}:{line}", "idea --line {line} {file}", "emacsclient -n +{line} {file}", "zed {file}:{line}"];

/** OpenWithField is Settings' "Open files with": the command that opens a file of the
 * project at a line (a diff's file header, a stack frame in Context sent). */
export function OpenWithField({ value, onChange }: Props) {
  return (
    <fieldset className="open-with">
      <legend>Open files with</legend>
      <input
        data-testid="open-with"
        aria-label="Open files with"
        aria-describedby="open-with-hint"
        list="open-with-examples"
        placeholder="auto"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id="open-with-examples">
        {EXAMPLES.map((x) => (
          <option key={x} value={x} />
        ))}
      </datalist>
      <p className="hint small muted" id="open-with-hint" data-testid="open-with-hint">
        Empty (auto): <code>$VISUAL</code>, then <code>$EDITOR</code> (vim, nano and other terminal editors open in a terminal window), then VS Code, then
        the system's default app, which opens the file at its top. Or a command: <code>{"{file}"}</code> is the file's full path and <code>{"{line}"}</code>{" "}
        the line, e.g. <code>code -g {"{file}:{line}"}</code> or <code>idea --line {"{line} {file}"}</code>. It runs without a shell; put a path with spaces in
        quotes.
      </p>
    </fieldset>
  );
}
