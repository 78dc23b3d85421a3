/**
 * Moving the token cursor of the samples with the keyboard (./SamplesPanel.tsx).
 */
/**
 * Where a key moves the token cursor in a sample of `n` tokens from index `at` (−1: no cursor in this sample
 * yet, e.g. after Escape): ←/→ by one (clamped; from −1 to the first token), Home/End to the ends; null for any
 * other key (the key is left to the page).
 */
export function cursorMove(key: string, at: number, n: number): number | null {
  if (n === 0) return null;
  if (at < 0 && (key === "ArrowRight" || key === "ArrowLeft")) return 0;
  if (key === "ArrowRight") return Math.min(n - 1, at + 1);
  if (key === "ArrowLeft") return Math.max(0, at - 1);
  if (key === "Home") return 0;
  if (key === "End") return n - 1;
  return null;
}
