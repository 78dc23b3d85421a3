import { expect, type Page } from "@playwright/test";

/** Collect the page's uncaught errors from now on (a test ends with `expect(errors).toEqual([])`). */
export function collectPageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on("pageerror", (e) => errors.push(e));
  return errors;
}

/** Wait until the lab has started its experiment (data-phase "ready"). */
export const labReady = (page: Page, timeout = 180_000) =>
  expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout });

/** Open `link` (a `#s=` hash) with the page's errors collected, and wait until the lab is ready. */
export async function openExperiment(page: Page, link: string): Promise<Error[]> {
  const errors = collectPageErrors(page);
  await page.goto(`/${link}`);
  await labReady(page);
  return errors;
}

/** Reload `page`, accepting a "Leave site?" prompt; resolves to the types of the dialogs it met. */
export async function reloadAccepting(page: Page): Promise<string[]> {
  const dialogs: string[] = [];
  page.once("dialog", (d) => {
    dialogs.push(d.type());
    void d.accept();
  });
  await page.reload();
  return dialogs;
}
