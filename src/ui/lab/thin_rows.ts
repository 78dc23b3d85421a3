/**
 * Thinning a chart's rows to at most a number, keeping some (./PipelineChart.tsx).
 */
/**
 * At most about `max` of `rows`: every k-th one (k = ⌈n / max⌉), the last, and every row `keep` says must stay
 * (sparse series such as held-out evaluations), in their order. Fewer than `max` rows come back as they are.
 */
export function thinRows<T>(rows: readonly T[], max: number, keep: (r: T) => boolean): T[] {
  if (rows.length <= max) return rows.slice();
  const k = Math.ceil(rows.length / max);
  return rows.filter((r, i) => i % k === 0 || i === rows.length - 1 || keep(r));
}
