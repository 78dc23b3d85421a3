import { expect, type Page, test } from "@playwright/test";
import { collectPageErrors } from "./page";

// A fresh profile, not the one with the GPU checks kept (e2e/global-setup.ts): the first test watches the checks
// run, then kept and shown at a reload; the lost-device test loses the device while the self-test runs.
test.use({ storageState: { cookies: [], origins: [] } });

/** SwiftShader runs the self-test at ~1 GFLOP/s, slower still when the machine is busy. */
const SELFTEST_TIMEOUT = 400_000;

/** The System panel (adapter, self-test) folds under the lab once the GPU is up: open it. */
async function openSystemPanel(page: Page): Promise<void> {
  const panel = page.getByTestId("system-panel");
  await expect(page.getByTestId("lab")).toBeVisible({ timeout: 60_000 });
  if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open)))
    await page.getByTestId("system-summary").click();
}

/** Uncaught exceptions in the page; each test asserts there were none. */
test("shows the adapter and every kernel matches its CPU twin", async ({ page }, testInfo) => {
  test.setTimeout(SELFTEST_TIMEOUT + 60_000);
  const pageErrors = collectPageErrors(page);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "RLHF Playground" })).toBeVisible();
  await openSystemPanel(page);

  const name = page.getByTestId("adapter-name");
  await expect(name).toBeVisible();
  expect((await name.textContent())?.toLowerCase()).toContain("swiftshader");
  await expect(page.getByTestId("software-badge")).toHaveText("software adapter: ~1 GFLOP/s or less");

  const selftest = page.getByTestId("selftest");
  const summary = page.getByTestId("selftest-summary");
  await expect(selftest).toHaveAttribute("data-status", /done|failed/, { timeout: SELFTEST_TIMEOUT });
  await expect(selftest, `self-test: ${await summary.textContent()}`).toHaveAttribute("data-status", "done");

  const rows = page.locator('[data-testid^="selftest-row-"]');
  const count = await rows.count();
  expect(count, "self-test cases (src/kernels/selftest.ts CASES)").toBeGreaterThanOrEqual(47);
  // Both matmul variants are checked: training uses the one the worker's timing picked, not this page's default.
  for (const v of ["tiled", "regtile"])
    await expect(page.locator(`[data-kernel="matmul (A·B) · ${v}"]`), v).toHaveCount(1);
  const shapes: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = page.getByTestId(`selftest-row-${i}`);
    const label = `${await row.getAttribute("data-kernel")} ${await row.getAttribute("data-shape")}`;
    shapes.push((await row.getAttribute("data-shape")) ?? "");
    await expect(row.getByTestId("result"), label).toHaveText("pass");
    const err = Number(await row.getByTestId("max-err").textContent());
    const shown = async (id: string) => {
      const text = (await row.getByTestId(id).textContent()) ?? "";
      expect(text, `${label}: ${id} shown`).toMatch(/^\d/); // Number("") would read as 0
      return Number(text);
    };
    const atol = await shown("atol");
    const rtol = await shown("rtol");
    expect(Number.isFinite(err), `${label}: max |err| is a number`).toBe(true);
    // Only the copies (kv_append, gather_rows, gen_bookkeep) are checked bit-exact (0 · 0); every other bound is > 0.
    if (atol === 0 && rtol === 0)
      expect(["kv_append", "gather_rows", "gen_bookkeep"], `${label}: exact`).toContain(
        label.replace(/ .*$/, ""),
      );
    else expect(atol > 0 && atol <= 1e-3 && rtol > 0 && rtol <= 1e-3, `${label}: tolerance shown`).toBe(true);
    expect(err, label).toBeGreaterThanOrEqual(0);
    expect(err, `${label}: max |err| within 1e-3`).toBeLessThanOrEqual(1e-3);
    const elements = Number(await row.getByTestId("elements").getAttribute("data-value"));
    expect(elements, `${label}: elements`).toBeGreaterThan(0);
    const gpuMs = Number((await row.getByTestId("gpu-ms").textContent())?.replaceAll(",", ""));
    expect(gpuMs, `${label}: GPU ms`).toBeGreaterThanOrEqual(0);
  }
  expect(shapes).toContain("[70000×3]");
  expect(shapes).toContain("[4×300]");
  const kernels = new Set(
    await rows.evaluateAll((trs) =>
      trs.map((tr) => (tr.getAttribute("data-kernel") ?? "").replace(/ \(.*$/, "")),
    ),
  );
  expect(kernels.size, "distinct kernels checked").toBeGreaterThanOrEqual(32);
  await expect(summary).toHaveText(
    `${count}/${count} checks of ${kernels.size} kernels match their CPU twins.`,
  );
  await expect(page.getByTestId("error-banner")).toHaveCount(0);

  // The performance card: the matmul throughput measured after the self-test, a plausible number for a
  // software adapter (SwiftShader: ~0.1–20 GFLOP/s), with the software warning.
  const gflops = page.getByTestId("perf-gflops");
  await expect(gflops).toHaveAttribute("data-gflops", /^[0-9.e+-]+$/, { timeout: 60_000 });
  const measured = Number(await gflops.getAttribute("data-gflops"));
  expect(measured, "GFLOP/s").toBeGreaterThan(0.01);
  expect(measured, "GFLOP/s").toBeLessThan(1000);
  await expect(gflops).toContainText("GFLOP/s");
  await expect(gflops).toContainText("fp32, 256³ ×");
  await expect(page.getByTestId("perf-software")).toBeVisible();

  const shot = await page.screenshot({ path: "test-results/app-shell.png", fullPage: true });
  await testInfo.attach("app-shell", { body: shot, contentType: "image/png" });

  // A reload shows the checks this browser kept (same build, browser and adapter), saying so, instead of
  // running them again at every load; Run again runs both afresh.
  await page.reload();
  await openSystemPanel(page);
  await expect(selftest).toHaveAttribute("data-status", "done");
  await expect(rows).toHaveCount(count);
  await expect(summary).toHaveText(
    new RegExp(
      `^${count}/${count} checks of ${kernels.size} kernels match their CPU twins\\. Checked (just now|\\d+ minutes? ago) with this version of the lab, this browser and this adapter \\(kept in this browser, not run at this load\\)\\.$`,
    ),
  );
  await expect(gflops).toHaveAttribute("data-gflops", String(measured));
  await expect(gflops).toContainText("measured");
  await page.getByTestId("selftest-again").click();
  await expect(selftest).toHaveAttribute("data-status", "running");
  await expect(selftest).toHaveAttribute("data-status", "done", { timeout: SELFTEST_TIMEOUT });
  await expect(rows).toHaveCount(count);
  await expect(summary).toHaveText(
    `${count}/${count} checks of ${kernels.size} kernels match their CPU twins.`,
  );
  await expect(gflops).toHaveAttribute("data-gflops", /^[0-9.e+-]+$/, { timeout: 60_000 });
  await expect(gflops).not.toContainText("measured");

  // The same finished page in the dark theme.
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  const dark = await page.screenshot({ path: "test-results/app-shell-dark.png", fullPage: true });
  await testInfo.attach("app-shell-dark", { body: dark, contentType: "image/png" });
  expect(pageErrors.map(String)).toEqual([]);
});

test("the theme follows the system until the toggle picks one, which survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "dark");
  await page.getByTestId("theme-toggle").click();
  await expect(html).toHaveAttribute("data-theme", "light");
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "light");
});

test("a lost device shows an error banner, not a blank page", async ({ page }, testInfo) => {
  test.setTimeout(SELFTEST_TIMEOUT);
  // Keep a handle on the page's device so the test can destroy it, as a driver reset would.
  await page.addInitScript(() => {
    const request = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = async function (this: GPUAdapter, desc?: GPUDeviceDescriptor) {
      const device = await request.call(this, desc);
      (globalThis as { __testDevice?: GPUDevice }).__testDevice = device;
      return device;
    };
  });
  const pageErrors = collectPageErrors(page);
  await page.goto("/");
  await openSystemPanel(page);
  await expect(page.getByTestId("adapter-name")).toBeVisible({ timeout: SELFTEST_TIMEOUT / 2 });
  // Lose the device while the self-test runs (on SwiftShader it takes a while).
  await page.evaluate(() => (globalThis as { __testDevice?: GPUDevice }).__testDevice?.destroy());
  // The page's device runs only the System panel's checks (training has its own): the banner says so, in words.
  const banner = page.getByTestId("error-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("The System panel's checks lost their GPU device.");
  await expect(banner).toContainText("Training runs on a GPU device of its own and is not affected.");
  await expect(banner).not.toContainText("Reload");
  await expect(banner).not.toContainText("GPU device lost (");
  const selftest = page.getByTestId("selftest");
  await expect(selftest).toHaveAttribute("data-status", /failed|done/);
  // Run again gets the checks a new device.
  await expect(page.getByTestId("selftest-again")).toBeVisible();
  await expect(page.getByTestId("adapter-name"), "the rest of the page stays").toBeVisible();
  const shot = await page.screenshot({ path: "test-results/device-lost.png", fullPage: true });
  await testInfo.attach("device-lost", { body: shot, contentType: "image/png" });
  expect(pageErrors.map(String)).toEqual([]);
});
