/**
 * Previous / next buttons around what they move through (a chooser, or a "1–8 of 32" label), so a student can
 * page through a whole batch in the inspectors. `index` runs over [0, count); the buttons disable at the ends.
 */
import type { ReactNode } from "react";

export function Pager({
  index,
  count,
  what,
  onChange,
  testId,
  children,
}: {
  index: number;
  count: number;
  /** What one step moves to, for the buttons' labels, e.g. "completion". */
  what: string;
  onChange: (index: number) => void;
  testId: string;
  children: ReactNode;
}) {
  // aria-disabled, not disabled: a button that reaches an end keeps the keyboard focus (a disabled one drops it
  // to the page).
  const button = (dir: -1 | 1, label: string, glyph: string) => {
    const off = dir < 0 ? index <= 0 : index >= count - 1;
    return (
      <button
        type="button"
        className="pager-button"
        aria-label={`${label} ${what}`}
        title={`${label} ${what}`}
        data-testid={`${testId}-${dir < 0 ? "prev" : "next"}`}
        aria-disabled={off}
        onClick={() => {
          if (!off) onChange(index + dir);
        }}
      >
        {glyph}
      </button>
    );
  };
  return (
    <div className="inspect-pager" data-testid={testId}>
      {button(-1, "Previous", "‹")}
      {children}
      {button(1, "Next", "›")}
    </div>
  );
}

/**
 * A labelled chooser of one item out of `options` (each option's text), between previous / next buttons:
 * the select's test id is `testId`, the pager's `${testId}-pager`.
 */
export function Chooser({
  label,
  what,
  options,
  index,
  onChange,
  testId,
}: {
  label: string;
  what: string;
  options: readonly string[];
  index: number;
  onChange: (index: number) => void;
  testId: string;
}) {
  const labelId = `${testId}-label`;
  return (
    <div className="inline-select">
      <span className="eyebrow" id={labelId}>
        {label}
      </span>
      <Pager index={index} count={options.length} what={what} onChange={onChange} testId={`${testId}-pager`}>
        <select
          data-testid={testId}
          aria-labelledby={labelId}
          value={index}
          onChange={(e) => onChange(Number(e.target.value))}
        >
          {options.map((text, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the options are replaced wholesale each step
            <option key={i} value={i}>
              {text}
            </option>
          ))}
        </select>
      </Pager>
    </div>
  );
}
