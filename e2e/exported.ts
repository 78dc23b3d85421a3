import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import Papa from "papaparse";

/** Download one of run `runId`'s exports through its Export menu (`kind`: csv, all, trl, json, …): name and text. */
export async function exportedFile(
  page: Page,
  runId: string,
  kind: string,
): Promise<{ name: string; text: string }> {
  await page.getByTestId(`export-${runId}`).click();
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 60_000 }),
    page.getByTestId(`export-${runId}-${kind}`).click(),
  ]);
  return { name: download.suggestedFilename(), text: await readFile((await download.path()) ?? "", "utf8") };
}

/**
 * A run's metric history as its Export menu writes it (CSV: step, samples, tokens, then the metrics); an
 * empty cell (a metric the step did not report) is null. The first column of a name wins: the axis columns
 * step, samples, tokens lead, and a metric may repeat one of their names (the algorithms also report a
 * per-step "tokens").
 */
export async function exportedCsv(page: Page, runId: string): Promise<Record<string, number | null>[]> {
  const { text } = await exportedFile(page, runId, "csv");
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

/**
 * "Export all runs (CSV)" from run `runId`'s menu (src/lab/export/all_runs.ts: run, label, algorithm, seed, task,
 * model, differing settings, then the per-run columns; one row per run and step): the file's name, its header
 * and its rows as text cells by column ("" where empty), parsed as RFC 4180.
 */
export async function exportedAllRuns(
  page: Page,
  runId: string,
): Promise<{ name: string; header: string[]; rows: Record<string, string>[] }> {
  const { name, text } = await exportedFile(page, runId, "all");
  const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true });
  return { name, header: parsed.meta.fields ?? [], rows: parsed.data };
}
