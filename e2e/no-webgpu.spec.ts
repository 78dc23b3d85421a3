import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { WEBGPU_HELP } from "../src/gpu/errors";

async function expectNoWebGpuPage(page: Page, reason: string, shotName: string, testInfo: TestInfo) {
  const pageErrors: Error[] = [];
  page.on("pageerror", (e) => pageErrors.push(e));
  await page.goto("/");
  const panel = page.getByTestId("no-webgpu");
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute("data-reason", reason);
  await expect(page.getByTestId("no-webgpu-reason")).toHaveText(reason);
  await expect(panel).toContainText("This lab needs WebGPU");
  await expect(panel).toContainText("chrome://flags/#enable-unsafe-webgpu");
  await expect(panel).toContainText("chrome://gpu");
  await expect(panel).toContainText("Chrome or Edge 113 or newer");
  await expect(page.getByTestId("no-webgpu-message")).toContainText(WEBGPU_HELP.browser);
  await expect(page.getByTestId("selftest"), "no lab without a GPU").toHaveCount(0);
  const shot = await page.screenshot({ path: `test-results/${shotName}.png`, fullPage: true });
  await testInfo.attach(shotName, { body: shot, contentType: "image/png" });
  expect(pageErrors.map(String)).toEqual([]);
}

test("no navigator.gpu: explains what WebGPU is missing and how to get it", async ({ page }, testInfo) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "gpu", { get: () => undefined, configurable: true });
  });
  await expectNoWebGpuPage(page, "no-webgpu", "no-webgpu", testInfo);
});

test("requestAdapter() gives null: says no adapter and how to fix it", async ({ page }, testInfo) => {
  await page.addInitScript(() => {
    GPU.prototype.requestAdapter = async () => null;
  });
  await expectNoWebGpuPage(page, "no-adapter", "no-adapter", testInfo);
});
