/**
 * Previous / next buttons around what they move through (a chooser, or a "1–8 of 32" label), so a student can
 * page through a whole batch in the inspectors. `index` runs over [0, count); the buttons disable at the ends.
 */
import type { ReactNode } from "react";

/** The pages of `count` items, `size` a page: [first, end) of page `page` (clamped), and the page count. */
export function pageRange(page: number, count: number, size: number) {
  const pages = Math.max(1, Math.ceil(count / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  return { page: p, pages, first: p * size, end: Math.min(count, (p + 1) * size) };
}

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
  return (
    <div className="inspect-pager" data-testid={testId}>
      <button
        type="button"
        className="pager-button"
        aria-label={`Previous ${what}`}
        title={`Previous ${what}`}
        data-testid={`${testId}-prev`}
        disabled={index <= 0}
        onClick={() => onChange(index - 1)}
      >
        ‹
      </button>
      {children}
      <button
        type="button"
        className="pager-button"
        aria-label={`Next ${what}`}
        title={`Next ${what}`}
        data-testid={`${testId}-next`}
        disabled={index >= count - 1}
        onClick={() => onChange(index + 1)}
      >
        ›
      </button>
    </div>
  );
}
