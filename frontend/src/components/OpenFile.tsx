import type { ReactNode } from "react";
import type { FileRef } from "../state/jump";

type Props = {
  at: FileRef;
  onOpen: (at: FileRef) => void;
  /** children is what the link shows (the file's name, a frame); "open" by default. */
  children?: ReactNode;
  className?: string;
};

/** OpenFile is a link that opens a place of the project in the user's editor. It
 * works inside a <summary>: the click opens the file and does not fold the section. */
export function OpenFile({ at, onOpen, children, className }: Props) {
  return (
    <button
      type="button"
      className={`link open-file${className ? ` ${className}` : ""}`}
      data-testid="open-in-editor"
      data-path={at.path}
      data-line={at.line}
      title={`Open ${at.path} at line ${at.line} in your editor`}
      aria-label={`Open ${at.path} at line ${at.line} in your editor`}
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        onOpen(at);
      }}
    >
      {children ?? "open ↗"}
    </button>
  );
}
