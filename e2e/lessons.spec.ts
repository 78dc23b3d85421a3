import { expect, type Page, test } from "@playwright/test";
import { PRESET_IDS } from "../src/lab/presets/ids";
import { type Lesson, lessonStatusText } from "../src/lab/presets/lesson";
import { E2E_LESSONS as LESSONS, STEPS, testScale } from "./lesson_scale";
import { linkOf } from "./links";

/**
 * Every guided lesson opens from its link and trains: the lesson card shows, the lesson's step limit pauses
 * the lab by itself after 3 steps of every run, and every run's reward, KL and entropy points are finite.
 * SwiftShader runs our kernels at ~1 GFLOP/s, so each lesson is opened at test scale: its runs, algorithms and
 * distinguishing settings (β, G, loss type, ε_high, flip rate, n, reward source…) as they are, on the
 * arithmetic task with the `nano` model and tiny batches. That the effects show at full scale is checked by
 * `npm run lab -- lesson all` on the shipped models (see README), not here.
 */

/**
 * "What to watch" scrolls inside the card in a short window (1280 × 800 here): then "More below" shows, and
 * pressing it until it goes brings the last item wholly into view.
 */
async function readsToTheEnd(page: Page): Promise<void> {
  const watch = page.getByTestId("lesson-watch");
  const more = page.getByTestId("lesson-more");
  const overflows = await watch.evaluate((el) => el.scrollHeight > el.clientHeight + 2);
  await expect(more).toHaveCount(overflows ? 1 : 0);
  // The list's smooth scroll has ended (its position held for 200 ms): the button's state is then final (it
  // goes once the last item shows; a busy machine scrolls for longer than any fixed wait).
  const settled = async () => {
    let last = -1;
    for (let i = 0; i < 50; i++) {
      const top = await watch.evaluate((el) => el.scrollTop);
      if (top === last) return;
      last = top;
      await page.waitForTimeout(200);
    }
  };
  for (let i = 0; i < 10 && (await more.count()) > 0; i++) {
    await more.click();
    await settled();
  }
  await expect(more).toHaveCount(0);
  const list = await watch.boundingBox();
  const last = await watch.locator("li").last().boundingBox();
  if (!list || !last) throw new Error("what to watch is not laid out");
  expect(last.y + last.height, "the last item shows whole").toBeLessThanOrEqual(list.y + list.height + 2);
}

/** The lesson's link at test scale. */
function link(lesson: Lesson): string {
  return linkOf(testScale(lesson.experiment(0)), lesson.view);
}

async function raw(page: Page, chart: string, runId: string, metric: string): Promise<(number | null)[]> {
  const row = page.locator(
    `[data-testid="chart-data-${chart}"] tr[data-run="${runId}"][data-metric="${metric}"]`,
  );
  if ((await row.count()) === 0) return [];
  return JSON.parse((await row.first().getAttribute("data-raw")) ?? "[]");
}

for (const lesson of LESSONS) {
  test(`lesson "${lesson.title}" opens from its link and trains ${STEPS} steps with finite metrics`, async ({
    page,
  }) => {
    test.setTimeout(420_000);
    const errors: Error[] = [];
    page.on("pageerror", (e) => errors.push(e));
    await page.goto(`/${link(lesson)}`);
    await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
    const card = page.getByTestId("lesson-card");
    await expect(card).toHaveAttribute("data-lesson", lesson.id);
    await expect(card.getByRole("heading")).toHaveText(lesson.title);
    // Whether its check passed on the shipped models, in small text (Lesson.status).
    await expect(card.getByTestId("lesson-status")).toHaveText(lessonStatusText(lesson.status));
    await expect(card.getByTestId("lesson-watch").locator("li")).toHaveCount(lesson.watch.length);
    await readsToTheEnd(page);
    // The test-scale link runs the lesson on the nano model: the card says its notes are for the lesson as made.
    await expect(card.getByTestId("lesson-changes")).toContainText(
      `the nano (random init) model (the lesson's: the ${lesson.experiment(0).task} task, the shipped SFT model)`,
    );
    // The closed Lessons picker names the open lesson by its number in the menu.
    await expect(page.getByTestId("lesson-picker").locator("option").first()).toHaveText(
      `Lesson ${PRESET_IDS.indexOf(lesson.id) + 1}…`,
    );
    // Its own entry is not offered again (its link would resume saved runs, not restart them: Reset does).
    await expect(page.getByTestId("lesson-picker").locator(`option[value="${lesson.id}"]`)).toBeDisabled();
    // Each says how many steps it takes (a teacher plans a class by it).
    for (const l of LESSONS)
      await expect(page.getByTestId("lesson-picker").locator(`option[value="${l.id}"]`)).toContainText(
        `${l.title} · ${l.experiment(0).steps} steps`,
      );
    // On this software GPU the sentiment lessons say they are slow; the arithmetic ones do not.
    for (const l of LESSONS)
      await expect(page.getByTestId("lesson-picker").locator(`option[value="${l.id}"]`)).toContainText(
        l.experiment(0).task === "sentiment" ? "minutes a step on this software GPU" : l.title,
      );
    await expect(
      page.getByTestId("lesson-picker").locator("option", { hasText: "minutes a step" }),
    ).toHaveCount(LESSONS.filter((l) => l.experiment(0).task === "sentiment").length);
    await expect(page.getByTestId("stop-at")).toHaveValue(String(STEPS));
    await expect(page.getByTestId("lab-notice")).toHaveCount(0);
    const ids = lesson.experiment(0).runs.map((r) => r.id);
    for (const id of ids) await expect(page.getByTestId(`status-${id}`)).toHaveText("ready");
    // A student who opened the link is told how to start, on the card, until the first step.
    await expect(page.getByTestId("lesson-start")).toHaveText(/^\s*· press ▶ \(or space\) to train$/);

    await page.getByTestId("play").click();
    await expect(page.getByTestId("lesson-start")).toHaveCount(0);
    // The lesson's step limit pauses the lab by itself once every run has done STEPS steps.
    for (const id of ids)
      await expect(page.getByTestId(`step-${id}`)).toHaveText(String(STEPS), { timeout: 360_000 });
    await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false", { timeout: 60_000 });
    // A screen reader hears why it stopped (the live region beside the step counter).
    await expect(page.getByTestId("transport-status")).toHaveText(
      `Stopped at step ${STEPS}: every run reached “Stop at”.`,
    );
    // Its link stops at STEPS, short of the lesson's own length: the card says so rather than "finished".
    await expect(page.getByTestId("lesson-progress")).toContainText(
      `stopped at step ${STEPS} of the lesson's ${lesson.experiment(0).steps} (Stop at)`,
    );
    for (const id of ids) {
      await expect(page.getByTestId(`status-${id}`)).toHaveText("paused");
      // A run that optimises the gold score draws one reward line: its gold line would lie under it.
      const onGold = (lesson.experiment(0).runs.find((r) => r.id === id)?.config.reward ?? "gold") === "gold";
      if (onGold)
        expect(await raw(page, "reward", id, "reward_gold"), `${lesson.id} ${id} gold line`).toEqual([]);
      for (const [chart, metric] of [
        ["reward", "reward"],
        ...(onGold ? [] : [["reward", "reward_gold"]]),
        ["kl", lesson.view?.klEstimator ?? "objective/kl"],
        ["entropy", "entropy"],
      ]) {
        // Charts scrolled away do not redraw (src/ui/lab/in_view.ts): bring this one on screen first.
        await page.getByTestId(`chart-${chart}`).scrollIntoViewIfNeeded();
        await expect
          .poll(async () => (await raw(page, chart, id, metric)).length, {
            timeout: 30_000,
            message: `${lesson.id} ${id} ${metric}`,
          })
          .toBe(STEPS);
        const values = await raw(page, chart, id, metric);
        for (const v of values) expect(Number.isFinite(v), `${lesson.id} ${id} ${metric} = ${v}`).toBe(true);
      }
    }
    // Best-of-n's samples are its picks, one per prompt (not the n candidates of its first prompts).
    for (const r of testScale(lesson.experiment(0)).runs.filter((x) => x.algo === "bon")) {
      const prompts = await page
        .getByTestId(`samples-${r.id}`)
        .locator("li.sample .prompt")
        .allTextContents();
      expect(prompts, r.id).toHaveLength(r.config.batchPrompts as number);
      expect(new Set(prompts).size, `${r.id}: ${prompts.join(" | ")}`).toBe(prompts.length);
    }
    await page.screenshot({ path: `test-results/lesson-${lesson.id}.png` });
    if (lesson.id === "grpo-groups") {
      // A lesson run removed: the card names it, and brings it back with the lesson's settings at step 0.
      const [kept, gone] = lesson.experiment(0).runs;
      await page.getByTestId(`remove-${gone.id}`).click();
      await page.getByTestId(`remove-${gone.id}-confirm`).click();
      await expect(page.getByTestId(`run-card-${gone.id}`)).toHaveCount(0);
      await expect(card.getByTestId("lesson-removed")).toContainText(
        `Removed from this lesson: ${gone.label}.`,
      );
      await card.getByTestId("lesson-add-back").click();
      await expect(card.getByTestId("lesson-removed")).toHaveCount(0);
      await expect(page.getByTestId(`step-${gone.id}`)).toHaveText("0");
      await expect(page.getByTestId(`status-${gone.id}`)).toHaveText("ready");
      await expect(page.getByTestId(`knob-${gone.id}-numGenerations`)).toHaveValue(
        String(gone.config.numGenerations),
      );
      await expect(page.getByTestId(`step-${kept.id}`)).toHaveText(String(STEPS));
    }
    expect(errors).toEqual([]);
  });
}
