import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";

/**
 * A run's metric history as its Export menu writes it (CSV: step, samples, tokens, then the metrics); an
 * empty cell (a metric the step did not report) is null. The first column of a name wins: the axis columns
 * step, samples, tokens lead, and a metric may repeat one of their names (the algorithms also report a
 * per-step "tokens").
 */
export async function exportedCsv(page: Page, runId: string): Promise<Record<string, number | null>[]> {
  await page.getByTestId(`export-${runId}`).click();
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 60_000 }),
    page.getByTestId(`export-${runId}-csv`).click(),
  ]);
  const text = await readFile((await download.path()) ?? "", "utf8");
  const [header, ...lines] = text.trim().split("\n");
  const cols = header.split(",");
  return lines.map((line) => {
    const row: Record<string, number | null> = {};
    line.split(",").forEach((cell, i) => {
      if (!(cols[i] in row)) row[cols[i]] = cell === "" ? null : Number(cell);
    });
    return row;
  });
}
