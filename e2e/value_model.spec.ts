import { expect, test } from "@playwright/test";
import type { ExperimentSpec } from "../src/lab/protocol";
import { exportedCsv } from "./exported";
import { linkOf } from "./links";

/**
 * PPO's `valueModel` setting in the lab (arithmetic, nano, tiny batches; 2 steps, then the lab stops itself):
 * two PPO runs with the same seed, one with the value head on the policy ("shared"), one with a separate value
 * model. Step 1 samples the same completions and starts from the same values (the value model is the start
 * model), so reward, explained variance, policy loss and value loss are equal; step 2 differs (the shared run's
 * value loss also moved its policy). The setting is a select, locked once the runs have started. Screenshot of
 * the run cards with the tooltip.
 */

const SMALL = { batchPrompts: 2, maxNewTokens: 4, ppoEpochs: 1, lr: 3e-3 };

/** The experiment: two PPO runs, value head shared vs a separate value model; the lab stops after 2 steps. */
const EXPERIMENT = {
  task: "arithmetic",
  model: "nano",
  seed: 0,
  steps: 2,
  runs: [
    { id: "ppo-1", algo: "ppo", label: "PPO shared", config: SMALL },
    { id: "ppo-2", algo: "ppo", label: "PPO separate", config: { ...SMALL, valueModel: "separate" } },
  ],
} as ExperimentSpec;

test("PPO with a shared value head and with a separate value model: same first step, then apart", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors: Error[] = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/${linkOf(EXPERIMENT)}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  const knob = (id: string) => page.getByTestId(`knob-${id}-valueModel`);
  await expect(knob("ppo-1")).toHaveValue("shared");
  await expect(knob("ppo-2")).toHaveValue("separate");
  await expect(knob("ppo-2")).toBeEnabled();

  await page.getByTestId("play").click();
  for (const id of ["ppo-1", "ppo-2"])
    await expect(page.getByTestId(`step-${id}`)).toHaveText("2", { timeout: 480_000 });
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false", { timeout: 60_000 });
  await expect(knob("ppo-2")).toBeDisabled();

  // The second card's Export button is below the fold. A scroll that ends just before the click (its event
  // fires a frame later) keeps the menu open, right-aligned with its button; scrolling the button away closes it.
  const menu = await page.evaluate(async () => {
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const button = document.querySelector("[data-testid=export-ppo-2]") as HTMLElement;
    const list = () => document.querySelector("[data-testid=export-ppo-2-csv]")?.closest("ul");
    button.scrollIntoView({ block: "center" });
    button.click();
    await frames();
    // Right-aligned with its button, unless that would cross the window's left margin (8 px: popover_place.ts):
    // then at the margin, still under the button (a card in the left column, its Export button ~240 px in).
    const r = list()?.getBoundingClientRect();
    const b = button.getBoundingClientRect();
    const left = r ? Math.max(8, b.right - r.width) : Number.NaN;
    const placed = r ? { left: r.left - left, under: r.left <= b.left && r.right >= b.right - 8 } : null;
    const openAfterScroll = !!list();
    (document.querySelector(".run-column") as HTMLElement).scrollTop = 0;
    window.scrollTo(0, 0);
    await frames();
    return {
      openAfterScroll,
      aligned: !!placed && Math.abs(placed.left) <= 1 && placed.under,
      openAfterScrollAway: !!list(),
    };
  });
  expect(menu).toEqual({ openAfterScroll: true, aligned: true, openAfterScrollAway: false });

  const [shared, separate] = [await exportedCsv(page, "ppo-1"), await exportedCsv(page, "ppo-2")];
  expect(shared.map((r) => r.step)).toEqual([1, 2]);
  expect(separate.map((r) => r.step)).toEqual([1, 2]);
  for (const k of ["reward", "val/explained_variance", "loss/policy_avg", "loss/value_avg"]) {
    expect(Number.isFinite(separate[0][k] ?? Number.NaN), k).toBe(true);
    expect(separate[0][k], `step 1 ${k}`).toBe(shared[0][k]);
  }
  expect(separate[0]["val/ratio_first"]).toBe(1);
  expect(separate[1]["loss/value_avg"] ?? Number.NaN).toBeGreaterThan(0);
  expect(separate[1]["objective/kl"], "step 2: the policies differ").not.toBe(shared[1]["objective/kl"]);

  // The tooltip says what the setting does and why it is locked.
  await page.getByTestId("hint-ppo-2-valueModel").hover();
  const tip = page.getByRole("tooltip");
  await expect(tip).toContainText("shared · separate");
  await expect(tip).toContainText("Ouyang et al. 2022");
  await expect(tip).toContainText("which models the run holds");
  const cards = page.getByTestId("run-card-ppo-1").locator("xpath=..");
  await cards.screenshot({ path: "test-results/value-model-run-cards.png" });
  await page.screenshot({ path: "test-results/value-model-tooltip.png" });
  expect(errors).toEqual([]);
});
