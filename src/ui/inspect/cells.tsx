/** Table cells shared by the inspectors: a number in the lab's format with its full value in data-value. */
import type { ReactNode } from "react";
import { sig } from "../lab/numbers";

/** A right-aligned numeric cell: `sig(value, digits)`, the exact value in data-value, `col` in data-col. */
export function Num({
  value,
  col,
  digits = 3,
  className,
  rowSpan,
}: {
  value: number | null;
  col: string;
  digits?: number;
  className?: string;
  rowSpan?: number;
}) {
  return (
    <td
      className={`num mono${className ? ` ${className}` : ""}`}
      data-col={col}
      data-value={value ?? undefined}
      rowSpan={rowSpan}
    >
      {value === null ? "—" : sig(value, digits)}
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
