import { expect, type Locator, type Page, test } from "@playwright/test";
import { testExperiment } from "../src/lab/defaults";
import { linkOf } from "./links";

/**
 * The inspectors in the built app on SwiftShader: the test experiment's link (src/lab/defaults.ts; tiny batches,
 * 4 new tokens) on the shipped arithmetic SFT model, PPO over 2 epochs (so the last epoch's ratios move away
 * from 1), plus a Safe RLHF run (GRPO advantages on s = R − λ·length, so some groups have different scores
 * even when every reward is 0). Two Steps (at step 1 the policy equals the reference and every DPO margin
 * is 0), then each run's inspector, with its numbers checked against the formulas recomputed from what the
 * page prints: PPO: finite ρ and Â, log ρ = log π_θ − log π_old, clipped ⇔ (Â > 0 and ρ > 1 + ε) or (Â < 0
 * and ρ < 1 − ε), and its GAE columns: r_t = −β·k_t (+ R), δ_t = r_t + γV_{t+1} − V_t, A_t = δ_t + γλA_{t+1},
 * Â_t = (A_t − μ)/σ, G_t = A_t + V_t; GRPO's loss weights per loss_type; GRPO and Safe RLHF: G rows per group, the mean, the zero-std flag, A = (s − mean)/(std + ε)
 * with the sample std, summing to 0; DPO: r = β·(log π_θ − log π_ref), margin = r_w − r_l, σ(margin),
 * loss −log σ(margin). Screenshots at 1280×800 (test-results/inspect-*.png).
 */

/** The experiment of the link: the test experiment on the SFT model, PPO over 2 epochs, and a Safe RLHF run. */
function experiment() {
  const e = testExperiment();
  // The shipped arithmetic SFT model: completions are numbers of different lengths (Safe RLHF's cost).
  e.model = "sft";
  // DPO's annotator flips half the labels, so the pair view shows flipped labels to check.
  e.runs = e.runs.map((r) =>
    r.algo === "ppo"
      ? { ...r, config: { ...r.config, ppoEpochs: 2 } }
      : r.algo === "dpo"
        ? { ...r, config: { ...r.config, flipRate: 0.5 } }
        : r,
  );
  e.runs.push({
    id: "safe_rlhf-1",
    algo: "safe_rlhf",
    label: "Safe RLHF",
    config: { batchPrompts: 2, numGenerations: 4, maxNewTokens: 4, lr: 3e-3, lambdaInit: 0.5 },
  });
  return e;
}

/** A number as the lab prints it (sig(): "−" or "-", "1.2e-5", "1,234", "∞"). */
function parse(text: string): number {
  const t = text.trim().replace(/−/g, "-").replace(/,/g, "");
  if (t === "∞") return Number.POSITIVE_INFINITY;
  if (t === "-∞") return Number.NEGATIVE_INFINITY;
  return Number(t);
}

/** Half a unit in the last printed digit of a number as printed: how far the printed value may be off. */
function halfUlp(text: string): number {
  const t = text.trim().replace(/−/g, "-").replace(/,/g, "");
  const [mant, exp] = t.split("e");
  const decimals = mant.includes(".") ? mant.split(".")[1].length : 0;
  return 0.5 * 10 ** (Number(exp ?? 0) - decimals);
}

async function cellText(row: Locator, col: string): Promise<string> {
  return (await row.locator(`[data-col="${col}"]`).first().textContent()) ?? "";
}

async function shot(page: Page, name: string, testInfo: import("@playwright/test").TestInfo) {
  await page.getByTestId("inspect").scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  const body = await page.screenshot({ path: `test-results/${name}.png` });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * Open a GRPO-rule run's group view and check every group: G rows; the printed mean; the zero-std flag;
 * A_i(group) = (s_i − mean)/(std + ε) (sample std) within the printing's rounding; the own scaling marked.
 * @returns the number of groups and of groups whose scores differ.
 */
async function checkGroups(
  page: Page,
  runId: string,
  label: string,
): Promise<{ groups: number; spread: number }> {
  const panel = page.getByTestId("inspect");
  await page.getByTestId(`inspect-run-${runId}`).click();
  await expect(page.getByTestId("inspect-subtitle")).toHaveText(`Group advantages · ${label} · step 2`);
  const G = Number(experiment().runs.find((r) => r.id === runId)?.config.numGenerations);
  await expect(page.getByTestId("inspect-groups")).toHaveAttribute("data-g", String(G));
  const groups = await page.getByTestId("inspect-group").locator("option").count();
  let spread = 0;
  for (let g = 0; g < groups; g++) {
    // Every group once: the first by the chooser, the others by the pager's "next".
    if (g === 0) await page.getByTestId("inspect-group").selectOption("0");
    else await page.getByTestId("inspect-group-pager-next").click();
    await expect(page.getByTestId("inspect-group")).toHaveValue(String(g));
    const rows = panel.getByTestId("group-row");
    await expect(rows).toHaveCount(G);
    const scoreCol = (await rows.first().locator('[data-col="score"]').count()) ? "score" : "reward";
    const scores: number[] = [];
    const adv: string[] = [];
    for (let i = 0; i < G; i++) {
      scores.push(parse(await cellText(rows.nth(i), scoreCol)));
      adv.push(await cellText(rows.nth(i), "adv-group"));
    }
    const mean = scores.reduce((a, s) => a + s, 0) / G;
    const std = Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / (G - 1));
    const stats = page.getByTestId("group-stats");
    const e = parse((await stats.locator('[data-col="eps"]').textContent()) ?? "");
    expect(e).toBe(1e-4);
    const meanText = (await stats.locator('[data-col="mean"]').textContent()) ?? "";
    expect(Math.abs(parse(meanText) - mean)).toBeLessThanOrEqual(halfUlp(meanText) + 1e-12);
    const zero = scores.every((s) => s === scores[0]);
    if (!zero) spread++;
    // Flagged as frac_reward_zero_std counts: by the rewards (Safe RLHF's scores also hold −λ·cost).
    const rewards: string[] = [];
    for (let i = 0; i < G; i++) rewards.push(await cellText(rows.nth(i), "reward"));
    const tie = rewards.every((r) => parse(r) === parse(rewards[0]));
    await expect(page.getByTestId("zero-std")).toHaveAttribute("data-value", tie ? "yes" : "no");
    await expect(page.getByTestId("inspect-group").locator("option").nth(g)).toContainText(
      tie ? "zero reward std" : meanText,
    );
    adv.forEach((text, i) => {
      const want = zero ? 0 : (scores[i] - mean) / (std + e);
      expect(
        Math.abs(parse(text) - want),
        `${runId} group ${g} row ${i}: ${text} vs ${want}`,
      ).toBeLessThanOrEqual(halfUlp(text) + 1e-6);
    });
    const sum = adv.reduce((a, t) => a + parse(t), 0);
    expect(Math.abs(sum)).toBeLessThanOrEqual(adv.reduce((a, t) => a + halfUlp(t), 0) + 1e-9);
  }
  await expect(page.getByTestId("inspect-group-pager-next")).toBeDisabled();
  if (groups > 1) {
    // The button that reached the end keeps the focus, and space there is the button's (it does not play).
    await expect(page.getByTestId("inspect-group-pager-next")).toBeFocused();
    await page.keyboard.press("Space");
    await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false");
    await expect(page.getByTestId("inspect-group")).toHaveValue(String(groups - 1));
    await page.getByTestId("inspect-group-pager-prev").click();
    await expect(page.getByTestId("inspect-group")).toHaveValue(String(groups - 2));
  }
  await expect(panel.locator("th.is-own")).toContainText("this run");
  await expect(panel.locator("th.is-own")).toContainText("group");
  return { groups, spread };
}

/**
 * The group view's loss weights of the run shown (every group): per-token w under grpo = 1/(B·|o|),
 * dapo = 1/n, dr_grpo = 1/(B·L), with B, n and L as printed; the push w·A with the run's own loss type.
 * @returns the largest |w·A| printed.
 */
async function checkLossWeights(page: Page, lossType: string): Promise<number> {
  const panel = page.getByTestId("inspect");
  await page.getByTestId("group-columns-weights").click();
  await expect(page.getByTestId("group-columns-weights")).toHaveAttribute("aria-pressed", "true");
  const num = async (id: string) => parse((await page.getByTestId(id).textContent()) ?? "");
  const [B, n, L] = [await num("loss-b"), await num("loss-n"), await num("loss-l")];
  const groups = await page.getByTestId("inspect-group").locator("option").count();
  let most = 0;
  expect(B).toBe(groups * Number(await page.getByTestId("inspect-groups").getAttribute("data-g")));
  for (let g = 0; g < groups; g++) {
    await page.getByTestId("inspect-group").selectOption(String(g));
    const rows = panel.getByTestId("loss-row");
    for (let i = 0; i < (await rows.count()); i++) {
      const [len, a, wg, wd, wr, push] = await Promise.all(
        ["length", "advantage", "w-grpo", "w-dapo", "w-dr_grpo", "push"].map((c) => cellText(rows.nth(i), c)),
      );
      const at = `group ${g} row ${i}: |o| ${len}, A ${a}, w ${wg} ${wd} ${wr}, push ${push}`;
      expect(len, at).toMatch(/^[1-9]\d*$/);
      const near = (text: string, want: number) =>
        expect(Math.abs(parse(text) - want), at).toBeLessThanOrEqual(halfUlp(text) + 1e-12);
      near(wg, 1 / (B * Math.max(1, parse(len))));
      near(wd, 1 / n);
      near(wr, 1 / (B * L));
      const own = { grpo: wg, dapo: wd, dr_grpo: wr }[lossType] ?? "";
      expect(Math.abs(parse(push) - parse(own) * parse(a)), at).toBeLessThanOrEqual(
        halfUlp(push) + halfUlp(own) * Math.abs(parse(a)) + halfUlp(a) * parse(own) + 1e-12,
      );
      most = Math.max(most, Math.abs(parse(push)));
    }
  }
  await expect(panel.locator("th.is-own")).toContainText(lossType);
  return most;
}

test("after two steps, each inspector's numbers satisfy the algorithm's formulas", async ({
  page,
}, testInfo) => {
  test.setTimeout(600_000);
  const errors: Error[] = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/${linkOf(experiment())}`);
  await expect(page.getByTestId("lab")).toHaveAttribute("data-phase", "ready", { timeout: 180_000 });
  await expect(page.getByTestId("inspect-hint")).toContainText("Take a step");

  for (let s = 1; s <= 2; s++) {
    await page.getByTestId("step-once").click();
    for (const r of experiment().runs)
      await expect(page.getByTestId(`run-card-${r.id}`)).toHaveAttribute("data-step", String(s), {
        timeout: 240_000,
      });
  }
  const panel = page.getByTestId("inspect");

  // PPO: the token table of every completion.
  await page.getByTestId("inspect-run-ppo-1").click();
  await expect(page.getByTestId("inspect-subtitle")).toHaveText("Token table · PPO · step 2");
  const eps = Number(await page.getByTestId("inspect-eps").getAttribute("data-eps-low"));
  expect(eps).toBe(0.2);
  const options = await page.getByTestId("inspect-completion").locator("option").count();
  expect(options).toBe(2);
  let tokens = 0;
  let ratiosOff = 0;
  await expect(page.getByTestId("inspect-completion-pager-prev")).toBeDisabled();
  for (let c = 0; c < options; c++) {
    if (c === 0) await page.getByTestId("inspect-completion").selectOption("0");
    else await page.getByTestId("inspect-completion-pager-next").click();
    await expect(page.getByTestId("inspect-completion")).toHaveValue(String(c));
    const rows = panel.getByTestId("token-row");
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      const rhoText = await cellText(row, "ratio");
      const rho = parse(rhoText);
      const adv = parse(await cellText(row, "advantage"));
      expect(Number.isFinite(rho) && rho > 0, `ρ ${rhoText}`).toBe(true);
      expect(Number.isFinite(adv), "Â").toBe(true);
      expect(Number.isFinite(parse(await cellText(row, "kl"))), "KL").toBe(true);
      // The printed ρ agrees with log π_θ − log π_old as printed, up to the rounding of the three printed numbers.
      const lpText = await cellText(row, "logp");
      const lpOldText = await cellText(row, "logp-old");
      const dl = parse(lpText) - parse(lpOldText);
      const rounding = halfUlp(rhoText) / (rho - halfUlp(rhoText)) + halfUlp(lpText) + halfUlp(lpOldText);
      expect(
        Math.abs(Math.log(rho) - dl),
        `ρ ${rhoText}, log π ${lpText}, log π_old ${lpOldText}`,
      ).toBeLessThanOrEqual(rounding + 1e-9);
      // k1ₜ = log π_old − log π_ref (the run's default estimator), as printed.
      const klText = await cellText(row, "kl");
      const refText = await cellText(row, "logp-ref");
      expect(
        Math.abs(parse(klText) - (parse(lpOldText) - parse(refText))),
        `k1 ${klText}, log π_old ${lpOldText}, log π_ref ${refText}`,
      ).toBeLessThanOrEqual(halfUlp(klText) + halfUlp(lpOldText) + halfUlp(refText) + 1e-9);
      // … and exactly, from the unrounded values the cells carry (the printed ones leave ~0.01 of slack).
      const raw = async (col: string) =>
        Number(await row.locator(`[data-col="${col}"]`).getAttribute("data-value"));
      const [klRaw, oldRaw, refRaw] = [await raw("kl"), await raw("logp-old"), await raw("logp-ref")];
      expect(Math.abs(klRaw - (oldRaw - refRaw)), `k1 ${klRaw} vs ${oldRaw} − ${refRaw}`).toBeLessThanOrEqual(
        1e-9,
      );
      const near = Math.min(Math.abs(rho - (1 + eps)), Math.abs(rho - (1 - eps))) <= halfUlp(rhoText);
      if (!near) {
        const want = (adv > 0 && rho > 1 + eps) || (adv < 0 && rho < 1 - eps);
        const shown = (await row.locator('[data-col="clipped"]').getAttribute("data-value")) === "yes";
        expect(shown, `token ${i}: ρ = ${rho}, Â = ${adv}`).toBe(want);
        await expect(row.locator('[data-col="clipped"]')).toContainText(want ? "yes" : "no");
      }
      if (Math.abs(rho - 1) > 1e-3) ratiosOff++;
      tokens++;
    }
  }
  expect(tokens).toBeGreaterThan(0);
  expect(ratiosOff, "the second epoch's ratios differ from 1").toBeGreaterThan(0);
  await page.getByTestId("inspect-completion").selectOption("0");
  await shot(page, "inspect-ppo", testInfo);

  // PPO's advantages taken apart, from the printed numbers: r_t = −β·k_t (+ R on the last token),
  // δ_t = r_t + γV_{t+1} − V_t, A_t = δ_t + γλA_{t+1} from the last token back, Â_t = (A_t − μ)/σ.
  await page.getByTestId("token-columns-gae").click();
  await expect(page.getByTestId("token-columns-gae")).toHaveAttribute("aria-pressed", "true");
  const noteNum = async (id: string) => (await page.getByTestId(id).textContent()) ?? "";
  const [betaT, gammaT, lamT, muT, sigmaT] = await Promise.all(
    ["gae-beta", "gae-gamma", "gae-lam", "gae-mean", "gae-scale"].map(noteNum),
  );
  expect([parse(betaT), parse(gammaT), parse(lamT)]).toEqual([0.05, 1, 0.95]);
  const [mu, sigma] = [parse(muT), parse(sigmaT)];
  let values = 0;
  for (let c = 0; c < options; c++) {
    await page.getByTestId("inspect-completion").selectOption(String(c));
    const rows = panel.getByTestId("gae-row");
    const n = await rows.count();
    expect(n).toBeGreaterThan(0);
    const R = await noteNum("gae-reward");
    let next = { v: "0", a: "0" };
    for (let i = n - 1; i >= 0; i--) {
      const [k, r, v, d, a, adv, g] = await Promise.all(
        ["kl", "r", "v", "delta", "gae", "advantage", "return"].map((col) => cellText(rows.nth(i), col)),
      );
      const at = `completion ${c} token ${i + 1}: k ${k}, r ${r}, V ${v}, δ ${d}, A ${a}, Â ${adv}`;
      const wantR = -0.05 * parse(k) + (i === n - 1 ? parse(R) : 0);
      expect(Math.abs(parse(r) - wantR), at).toBeLessThanOrEqual(
        halfUlp(r) + 0.05 * halfUlp(k) + (i === n - 1 ? halfUlp(R) : 0) + 1e-9,
      );
      expect(Math.abs(parse(d) - (parse(r) + parse(next.v) - parse(v))), at).toBeLessThanOrEqual(
        halfUlp(d) + halfUlp(r) + halfUlp(next.v) + halfUlp(v) + 1e-9,
      );
      expect(Math.abs(parse(a) - (parse(d) + 0.95 * parse(next.a))), at).toBeLessThanOrEqual(
        halfUlp(a) + halfUlp(d) + halfUlp(next.a) + 1e-9,
      );
      const z = (parse(a) - mu) / sigma;
      expect(Math.abs(parse(adv) - z), at).toBeLessThanOrEqual(
        halfUlp(adv) + (halfUlp(a) + halfUlp(muT)) / sigma + (Math.abs(z) * halfUlp(sigmaT)) / sigma + 1e-9,
      );
      expect(Math.abs(parse(g) - (parse(a) + parse(v))), at).toBeLessThanOrEqual(
        halfUlp(g) + halfUlp(a) + halfUlp(v) + 1e-9,
      );
      if (Math.abs(parse(v)) > 1e-4) values++;
      next = { v, a };
    }
  }
  expect(values, "V_t from the value head, not zeros").toBeGreaterThan(0);
  await page.getByTestId("inspect-completion").selectOption("0");
  await shot(page, "inspect-ppo-gae", testInfo);

  // GRPO: G rows per group; group-scaled advantages recomputed from the printed scores. The nano-sized
  // batch's rewards are often all equal (zero std, zero advantages); Safe RLHF runs the same GRPO advantages
  // on s = R − λ·length, whose groups differ, so the formula is checked on non-zero numbers too.
  const grpo = await checkGroups(page, "grpo-1", "GRPO");
  expect(grpo.groups).toBe(2);
  await page.getByTestId("inspect-group").selectOption("0");
  await shot(page, "inspect-grpo", testInfo);
  // How the loss weighs the tokens under each loss_type (the run's own: grpo, the lab's default).
  await checkLossWeights(page, "grpo");
  await page.getByTestId("inspect-group").selectOption("0");
  await shot(page, "inspect-grpo-weights", testInfo);
  await page.getByTestId("group-columns-advantages").click();
  const safe = await checkGroups(page, "safe_rlhf-1", "Safe RLHF");
  expect(safe.spread, "Safe RLHF: groups with different scores").toBeGreaterThan(0);
  await shot(page, "inspect-safe-rlhf", testInfo);
  // Its groups differ, so the pushes w·A are not all 0.
  expect(await checkLossWeights(page, "grpo"), "Safe RLHF: some token pushed").toBeGreaterThan(0);
  await page.getByTestId("group-columns-advantages").click();

  // DPO: margin = r_w − r_l, σ(margin) and −log σ(margin), from the printed numbers.
  await page.getByTestId("inspect-run-dpo-1").click();
  await expect(page.getByTestId("inspect-subtitle")).toHaveText("Preference pairs · DPO · step 2");
  const pairs = panel.getByTestId("pair");
  await expect(pairs).toHaveCount(2);
  for (let p = 0; p < 2; p++) {
    const pair = pairs.nth(p);
    const [m, rw, rl, prob, loss] = await Promise.all(
      ["margin", "chosen-reward", "rejected-reward", "prob", "loss"].map((c) => cellText(pair, c)),
    );
    const tol = halfUlp(m) + halfUlp(rw) + halfUlp(rl);
    expect(
      Math.abs(parse(m) - (parse(rw) - parse(rl))),
      `pair ${p}: ${m} vs ${rw} − ${rl}`,
    ).toBeLessThanOrEqual(tol);
    // σ and the loss of the printed margin (σ' ≤ 1/4, |d log σ| ≤ 1 bound the rounding of the margin).
    expect(Math.abs(parse(prob) - sigmoid(parse(m)))).toBeLessThanOrEqual(halfUlp(prob) + halfUlp(m) / 4);
    expect(Math.abs(parse(loss) + Math.log(sigmoid(parse(m))))).toBeLessThanOrEqual(
      halfUlp(loss) + halfUlp(m),
    );
    // r = β·(log π_θ − log π_ref), β = 0.1.
    for (const side of ["chosen", "rejected"]) {
      const [r, lp, lr] = await Promise.all(
        [`${side}-reward`, `${side}-logp`, `${side}-logp-ref`].map((c) => cellText(pair, c)),
      );
      expect(Math.abs(parse(r) - 0.1 * (parse(lp) - parse(lr)))).toBeLessThanOrEqual(
        halfUlp(r) + 0.1 * (halfUlp(lp) + halfUlp(lr)),
      );
      // |y| is a count of tokens: written as one ("4", not "4.00").
      expect(await cellText(pair, `${side}-length`)).toMatch(/^[1-9]\d*$/);
    }
  }
  // "label flipped" marks exactly the pairs whose chosen answer is the wrong sum (the gold scorer prefers y_l).
  let flippedShown = 0;
  for (let p = 0; p < 2; p++) {
    const pair = pairs.nth(p);
    const [a, b] = (await pair.locator(".inspect-prompt .mono").innerText()).replace("=", "").split("+");
    const sum = String(Number(a) + Number(b));
    const answer = async (n: number) =>
      (await pair.locator(".inspect-completion").nth(n).innerText()).replace("<eos>", "").trim();
    const [chosen, rejected] = [await answer(0), await answer(1)];
    const marked = (await pair.getByTestId("pair-flipped").count()) === 1;
    console.log(`pair ${p}: ${a}+${b}=${sum}; y_w ${chosen}, y_l ${rejected}; marked flipped: ${marked}`);
    expect(chosen === sum || rejected === sum, `pair ${p}: one answer is right`).toBe(true);
    expect(marked, `pair ${p}: marked iff y_l is the right sum`).toBe(rejected === sum);
    if (marked) flippedShown++;
  }
  console.log(`DPO pairs marked flipped: ${flippedShown} of 2`);
  await shot(page, "inspect-dpo", testInfo);
  await page.getByTestId("inspect-run-ppo-1").click();
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await shot(page, "inspect-ppo-dark", testInfo);

  // While playing the inspector asks for a pause instead of changing under the reader.
  await page.getByTestId("play").click();
  await expect(page.getByTestId("inspect-hint")).toContainText("Pause");
  await page.getByTestId("play").click();
  await expect(page.getByTestId("play")).toHaveAttribute("aria-pressed", "false");
  expect(errors).toEqual([]);
});
