/**
 * A button that opens the browser's file picker: the (visually hidden) file input is cleared after each pick,
 * so choosing the same file again still counts. `onFiles` gets the chosen files (never an empty list).
 */
import { type ButtonHTMLAttributes, type ReactNode, useRef } from "react";

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "onClick"> {
  /** The button's data-testid; the input's is `${testId}-file`. */
  testId: string;
  accept: string;
  multiple?: boolean;
  onFiles(files: File[]): unknown;
  children: ReactNode;
}

export function FilePicker({ testId, accept, multiple, onFiles, children, ...button }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button {...button} type="button" data-testid={testId} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={`${testId}-file`}
        accept={accept}
        multiple={multiple}
        onChange={async (e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = "";
          if (files.length) await onFiles(files);
        }}
      />
    </>
  );
}
