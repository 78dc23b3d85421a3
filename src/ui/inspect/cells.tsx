/** Table cells shared by the inspectors: a number in the lab's format with its full value in data-value. */
import type { ReactNode } from "react";
import { sig } from "../lab/numbers";

/**
 * A right-aligned numeric cell: `sig(value, digits)` with its trailing zeros kept (−2.70 above −3.11, so a
 * column reads at one precision), the exact value in data-value, `col` in data-col.
 */
export function Num({
  value,
  col,
  digits = 3,
  className,
  rowSpan,
  whole = false,
}: {
  value: number | null;
  col: string;
  digits?: number;
  className?: string;
  rowSpan?: number;
  /** A count (tokens): written as the integer it is, "4" not "4.00". */
  whole?: boolean;
}) {
  return (
    <td
      className={`num mono${className ? ` ${className}` : ""}`}
      data-col={col}
      data-value={value ?? undefined}
      rowSpan={rowSpan}
    >
      {value === null ? "—" : whole ? String(value) : sig(value, digits, true)}
    </td>
  );
}

/** A column header: the symbol, and its unit or formula underneath in small muted text; `title` explains it. */
export function Head({
  symbol,
  sub,
  title,
  num = true,
  className,
}: {
  symbol: ReactNode;
  sub?: ReactNode;
  title: string;
  num?: boolean;
  className?: string;
}) {
  return (
    <th className={`${num ? "num" : ""}${className ? ` ${className}` : ""}`} title={title} scope="col">
      <span className="inspect-sym">{symbol}</span>
      {sub && <span className="inspect-sub">{sub}</span>}
    </th>
  );
}

/**
 * "Columns: [A] [B]": which set of columns an inspector table shows (segmented buttons, aria-pressed).
 * `testId` names the group; each button is `${testId}-${value}`.
 */
export function ColumnToggle<T extends string>({
  testId,
  value,
  options,
  onChange,
}: {
  testId: string;
  value: T;
  options: readonly { value: T; label: string; title: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <div className="segmented" data-testid={testId}>
      <span className="eyebrow">Columns</span>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          data-testid={`${testId}-${o.value}`}
          aria-pressed={value === o.value}
          title={o.title}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
