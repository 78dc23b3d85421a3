/**
 * Explanations of the sampling-based and constrained methods: best-of-n, expert iteration and Safe RLHF.
 * Formulas follow ../shared/docs/algorithms.md ("Best-of-n", "Over-optimisation", "Expert iteration …", "Constrained
 * RLHF").
 */

import { PAPERS } from "./papers";
import type { Explanation } from "./types";

const t = String.raw;

export const BEST_OF_N: Explanation = {
  algo: "bon",
  summary: t`Trains nothing: samples n completions and keeps the best-scored one. The baseline RL must beat.`,
  plain: t`No training at all: for each prompt, draw n answers and keep the one the reward scores best. It shows how much reward is there just by choosing among what the model already says.`,
  paragraphs: [
    t`Best-of-n trains nothing. For each prompt it samples $n$ completions from the start policy and keeps the one the reward source scores highest, which makes it a strong baseline: at equal KL, RL often does not beat it (Gao et al. 2022), though best-of-n pays n samples for every answer, at every use.`,
    t`More samples buy more reward at a price in KL: the kept completions drift from the reference distribution by at most $\log n - (n-1)/n$ nats, and the lab also shows the KL estimated from the sampled scores, which is smaller when scores tie. Because it optimises the proxy reward hard it over-optimises too: with a learned reward model the gold reward of the pick can fall while the proxy keeps rising.`,
  ],
  needs: [
    t`a reward source`,
    t`$n$ samples per prompt`,
    t`no gradient step (the start policy is $\pi_{\text{ref}}$)`,
  ],
  formulas: [
    {
      label: "Selection",
      tex: t`y^\star = \operatorname*{arg\,max}_{j = 1..n} R(x, y_j), \qquad y_j \sim \pi_{\text{ref}}(\cdot \mid x)`,
    },
    {
      label: "KL of best-of-n to the reference (an upper bound)",
      tex: t`\mathrm{KL}(\pi_{\text{BoN}} \,\|\, \pi_{\text{ref}}) \le \log n - \frac{n-1}{n}`,
    },
    {
      label: "Gold reward vs distance from the reference (Gao et al. 2022)",
      tex: t`R_{\text{gold}}(d) \approx d\,(\alpha - \beta d), \qquad d = \sqrt{\mathrm{KL}(\pi \,\|\, \pi_{\text{ref}})}`,
      note: t`$\alpha$ and $\beta$ are fitted constants here (not the KL coefficient); for RL the fit is $d(\alpha - \beta \log d)$.`,
    },
  ],
  papers: [PAPERS.stiennon, PAPERS.beirami, PAPERS.gao],
};

export const EXPERT_ITERATION: Explanation = {
  algo: "expert_iteration",
  summary: t`Rejection-sampling fine-tuning: sample k, keep the best, fine-tune on what was kept, repeat.`,
  plain: t`Repeated supervised learning on the model's own best answers: sample several per prompt, keep the best-scored, fine-tune on them with the ordinary cross-entropy, and repeat.`,
  paragraphs: [
    t`Expert iteration turns RL into repeated supervised learning. Each round it samples $k$ completions per prompt, keeps the best one (or every one scoring at least a threshold), and fine-tunes on the kept completions with the ordinary token cross-entropy.`,
    t`Low-scoring samples are dropped rather than pushed down, so learning is stable but can only reinforce what the policy already sometimes does. It is one of AlpacaFarm's reference methods and the idea behind rejection-sampling fine-tuning (RFT) for math reasoning.`,
  ],
  needs: [
    t`a reward source`,
    t`$k$ samples per prompt`,
    t`no KL penalty, no value model (the reference model only for the KL chart)`,
  ],
  formulas: [
    {
      label: "Kept completions of a prompt",
      tex: t`\mathcal{K} = \Big\{\operatorname*{arg\,max}_{j} R(x, y_j)\Big\} \quad \text{or} \quad \big\{\, j : R(x, y_j) \ge \text{threshold} \,\big\}`,
    },
    {
      label: "Fine-tuning loss",
      tex: t`L = -\frac{1}{N_{\text{tok}}} \sum_{i \in \mathcal{K}} \sum_t \log\pi_\theta(y_{i,t})`,
      note: t`$N_{\text{tok}}$ is the number of kept completion tokens ($n$ is best-of-n's sample count); prompt tokens are not trained on. Charted as “Training loss” (TRL's loss), measured before the round's last fine-tuning step.`,
    },
  ],
  papers: [PAPERS.alpacaFarm, PAPERS.rft, PAPERS.expertIteration],
};

export const SAFE_RLHF: Explanation = {
  algo: "safe_rlhf",
  summary: t`Maximises reward under a limit on a cost, with a Lagrange multiplier that tunes the penalty itself.`,
  plain: t`GRPO on a score minus a cost (here the answer's length, or its positive words) times a weight λ, where λ sets itself: it rises while the average cost is above a limit d and falls back when the cost is below it.`,
  paragraphs: [
    t`Safe RLHF maximises reward subject to a limit $d$ on a cost: harmfulness in the original paper (scored by a learned cost model), here a known one: the completion's length in tokens, or (sentiment) its number of positive words — a cost the reward wants more of, so a limit below what the policy would use binds (set $d$ accordingly: the default 8 is meant for tokens). Instead of a fixed penalty it keeps a Lagrange multiplier $\lambda$: the policy optimises $R - \lambda c$, and after each step $\lambda$ grows while the mean cost exceeds its limit and shrinks towards 0 when it is below.`,
    t`So the penalty tunes itself until the constraint just holds: watch the multiplier rise and the cost settle near $d$. The policy update itself is GRPO's (groups of $G$ completions, clipped ratio, $k_3$ KL to the reference), run on the penalised score.`,
    t`One subtlety: with the default group scaling, a group whose rewards all tie gets advantages $-\lambda(c - \bar c)/(\lambda\operatorname{std}(c) + 10^{-4}) \approx -(c - \bar c)/\operatorname{std}(c)$ once $\lambda\operatorname{std}(c) \gg 10^{-4}$, so even a small $\lambda$ pushes at full strength (scale "none" makes the push grow with $\lambda$). If the cost drops below $d$ by itself, this rule brings $\lambda$ back to 0: an inactive constraint costs nothing (complementary slackness).`,
  ],
  needs: [
    t`a reward and a cost per completion`,
    t`groups of $G \ge 2$ completions per prompt`,
    t`the reference model $\pi_{\text{ref}}$ while $\beta > 0$`,
  ],
  formulas: [
    {
      label: "Constrained objective",
      tex: t`\max_\theta\ \mathbb{E}\big[R(x, y)\big] \quad \text{subject to} \quad \mathbb{E}\big[c(x, y)\big] \le d`,
    },
    {
      label: "Score the policy optimises (with GRPO)",
      tex: t`R - \lambda\, c`,
    },
    {
      label: "Multiplier update after each step",
      tex: t`\lambda \leftarrow \max\!\big(0,\ \lambda + \eta\,(\operatorname{mean}(c) - d)\big)`,
      note: t`$\eta$ is the multiplier's step size; $\lambda$ starts at $\lambda_0$. This is the whole rule while $K_P = 0$ (the default). It is plain projected dual ascent, the lab's simplification: Dai et al. update $\ln\lambda$ instead (so $\lambda$ stays above 0) and scale the combined advantage by $1/(1+\lambda)$.`,
    },
    {
      label: "Optional proportional term (PID Lagrangian)",
      tex: t`\lambda_{\text{step}} = \max\!\big(0,\ \lambda + K_P\,(\operatorname{mean}(c) - d)\big)`,
      note: t`Plain dual ascent is an integral controller: $\lambda$ sums the past excesses, so it only falls after the cost has been below $d$ for a while, and the cost overshoots and swings around $d$. With $K_P > 0$ a step scores with $R - \lambda_{\text{step}}\, c$, where $\operatorname{mean}(c)$ is that step's own batch: the penalty also answers the current excess at once, which damps the swings. The update above still moves $\lambda$ (the integral part, charted dashed as $\lambda_I$ beside the step's λ).`,
    },
  ],
  papers: [PAPERS.safeRlhf, PAPERS.pidLagrangian, PAPERS.deepseekmath],
};
