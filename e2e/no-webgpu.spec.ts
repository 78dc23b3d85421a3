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

test("the footer links the built site's third-party notices: the bundled packages and the data", async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "gpu", { get: () => undefined, configurable: true });
  });
  await page.goto("/");
  const link = page.getByTestId("credits-notices");
  await expect(link).toHaveText("Licences and credits");
  await expect(page.getByTestId("credits")).toContainText("AFINN-165");
  const notices = await page.request.get(new URL((await link.getAttribute("href")) ?? "", page.url()).href);
  expect(notices.ok()).toBe(true);
  const text = await notices.text();
  for (const pkg of [
    "react",
    "recharts",
    "katex",
    "onnxruntime-web",
    "protobufjs",
    "@huggingface/tokenizers",
  ]) {
    expect(text, pkg).toMatch(new RegExp(`^${pkg} \\d+\\.\\d+\\.\\d+\\nLicense: `, "m"));
  }
  expect(text).toContain("Open Database License (ODbL) v1.0");
  expect(text).toMatch(/Moby-Dick[^\n]*\(PDDL\) v1\.0/);
  // As a reader sees it: the server names no charset, so the file must tell the browser it is UTF-8.
  const tab = await page.context().newPage();
  await tab.goto(new URL((await link.getAttribute("href")) ?? "", page.url()).href);
  expect(await tab.evaluate(() => document.characterSet)).toBe("UTF-8");
  expect(await tab.evaluate(() => document.body.innerText)).toContain("Finn Årup Nielsen");
  await tab.close();
});
