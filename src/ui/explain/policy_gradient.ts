/**
 * Explanations of the online policy-gradient algorithms: PPO, GRPO, RLOO and REINFORCE. Formulas follow
 * ../shared/docs/algorithms.md ("PPO for language models", "GRPO … and its variants", "RLOO and REINFORCE").
 */

import { PAPERS } from "./papers";
import type { Explanation } from "./types";

const t = String.raw;

export const PPO: Explanation = {
  algo: "ppo",
  summary: t`Reinforcement learning with a value head, a per-token KL penalty and a clipped update.`,
  plain: t`Supervised learning on the model's own answers, where each token's step is weighted by how much better than expected its answer turned out: a second output of the same network learns to predict what is still to come from each token (the score, less the drift penalties), so “better than expected” can be judged token by token. A penalty for drifting from the starting model, and a cap on how far one batch may move each token's probability, keep the steps small.`,
  paragraphs: [
    t`PPO treats every generated token as an action and the reward source's score $R(x, y)$ as a reward that arrives at the last token. Each token also pays a KL penalty $-\beta k_t$ for drifting from the reference model $\pi_{\text{ref}}$ (the SFT checkpoint), so each nat of drift from $\pi_{\text{ref}}$ costs $\beta$ of reward, and the policy moves only where the reward gained is worth it.`,
    t`A value head predicts, at each position, the reward still to come; GAE turns the rewards and those predictions into per-token advantages $A_t$: how much better the token turned out than expected. The update is a weighted likelihood step (push up tokens with $A_t > 0$, push down those with $A_t < 0$), with the probability ratio $\rho_t$ clipped: once a token's ratio leaves $[1-\varepsilon, 1+\varepsilon]$ in the direction its advantage favours, it is pushed no further, which discourages (but does not forbid) large moves over several epochs on one batch.`,
  ],
  needs: [
    t`a scalar reward per completion`,
    t`the reference model $\pi_{\text{ref}}$ (KL penalty)`,
    t`a value model: by default a value head on the policy's own transformer; with critic = separate, a second transformer with its own optimizer`,
  ],
  formulas: [
    {
      label: "Per-token reward",
      tex: t`r_t = -\beta\, k_t + [t = T]\, R(x, y)`,
      note: t`$k_t$ is the chosen KL estimator (default $k_1 = \log\pi_\theta(y_t) - \log\pi_{\text{ref}}(y_t)$, with $\pi_\theta$ as it sampled the batch, i.e. $\pi_{\text{old}}$); $T$ is the last completion token.`,
    },
    {
      label: "The KL estimators (Schulman 2020)",
      tex: t`\begin{gathered} k_1 = -\ell_t, \qquad k_2 = \tfrac12\,\ell_t^2, \qquad k_3 = (u_t - 1) - \ell_t \\[0.35em] \ell_t = \log\pi_{\text{ref}}(y_t) - \log\pi_\theta(y_t), \qquad u_t = e^{\ell_t} \end{gathered}`,
      note: t`For tokens sampled from $\pi_\theta$: $k_1$ is unbiased but can be negative (per token, and per batch); $k_2$ is never negative, biased, low variance; $k_3$ is unbiased and never negative. The KL chart's menu shows each, and the exact KL over the whole vocabulary.`,
    },
    {
      label: "GAE advantages and returns",
      tex: t`\delta_t = r_t + \gamma V_{t+1} - V_t, \qquad A_t = \delta_t + \gamma\lambda\, A_{t+1}, \qquad G_t = A_t + V_t`,
      note: t`$V_{T+1} = 0$; defaults $\gamma = 1$, $\lambda = 0.95$; advantages are whitened over the batch. Every term of a real batch: pause, then Inspect → Advantage (GAE).`,
    },
    {
      label: "Clipped policy loss",
      tex: t`\begin{gathered} L_{\text{pg}} = -\operatorname{mean}_t \min\!\big(\rho_t A_t,\ \operatorname{clip}(\rho_t, 1-\varepsilon, 1+\varepsilon)\, A_t\big) \\[0.35em] \rho_t = \exp\!\big(\log\pi_\theta(y_t) - \log\pi_{\text{old}}(y_t)\big) \end{gathered}`,
      note: t`$\pi_{\text{old}}$ is the policy that sampled the batch; $\varepsilon = 0.2$.`,
    },
    {
      label: "Clipped value loss",
      tex: t`\begin{gathered} V^c = V_{\text{old}} + \operatorname{clip}(V - V_{\text{old}}, -\varepsilon_v, \varepsilon_v) \\[0.35em] L_v = \tfrac{1}{2}\operatorname{mean}_t \max\!\big((V - G)^2, (V^c - G)^2\big) \end{gathered}`,
    },
    {
      label: "Total loss",
      tex: t`L = L_{\text{pg}} + c_v L_v - c_H \operatorname{mean}_t H_t`,
      note: t`$c_v = 0.1$; the entropy bonus $c_H$ is 0 by default. With a separate critic the policy's loss has no $c_v L_v$ term and the critic trains on $c_v L_v$ alone.`,
    },
    {
      label: "Adaptive KL controller (optional)",
      tex: t`\beta \leftarrow \beta \cdot \Big(1 + \operatorname{clip}\!\big(\mathrm{KL}/\mathrm{KL}_{\text{target}} - 1,\ -0.2,\ 0.2\big)\cdot n/\text{horizon}\Big)`,
      note: t`After each batch of $n$ samples; off by default. In the lab $\beta$ stays in $[0, 10]$, the run card shows the $\beta$ in use under the control, and duplicates, reloads and exports continue it; setting $\beta$ restarts the controller from that value, and turning it off returns to it.`,
    },
  ],
  papers: [PAPERS.ppo, PAPERS.gae, PAPERS.ziegler, PAPERS.instructgpt, PAPERS.nPlus],
};

export const GRPO: Explanation = {
  algo: "grpo",
  summary: t`PPO without a value model: each completion is scored against the mean and spread of its prompt's G completions.`,
  plain: t`Sample several answers to the same prompt, score them all, then take a supervised-learning step on each answer with a weight: positive if it scored above the other answers to its prompt on average, negative if below. The other answers are the yardstick, so nothing has to learn to predict scores.`,
  paragraphs: [
    t`GRPO drops PPO's value model. For each prompt it samples a group of $G$ completions and judges each against its siblings: the advantage is the score minus the group's mean, divided by the group's standard deviation, and every token of the completion shares it.`,
    t`The update uses PPO's clipped ratio and puts the KL to the reference ($k_3$ estimator, weight $\beta$) directly in the loss instead of the reward. A group whose completions all score the same carries no reward signal, only the KL term's (watch the zero-std groups metric), and the way token losses are averaged (loss type) decides whether long or short answers are favoured.`,
  ],
  needs: [
    t`a scalar reward per completion`,
    t`groups of $G \ge 2$ completions per prompt`,
    t`the reference model $\pi_{\text{ref}}$ while $\beta > 0$`,
  ],
  formulas: [
    {
      label: "Group-relative advantage (every token of completion i)",
      tex: t`A_i = \frac{R_i - \operatorname{mean}(R)}{\operatorname{std}(R) + 10^{-4}}`,
      note: t`std is the sample std of the group (divisor $G-1$); scale = batch uses the batch's std, none skips the division (Dr. GRPO).`,
    },
    {
      label: "Per-token objective (maximised)",
      tex: t`\begin{gathered} \min\!\big(\rho\, A_i,\ \operatorname{clip}(\rho, 1-\varepsilon, 1+\varepsilon_{\text{high}})\, A_i\big) - \beta\, k_3 \\[0.35em] \rho = \exp(\log\pi_\theta - \log\pi_{\text{old}}) \end{gathered}`,
      note: t`$\varepsilon = 0.2$, $\varepsilon_{\text{high}} = \varepsilon$ unless set (its knob at 0; DAPO's clip-higher uses 0.28), $\beta = 0.04$; $\beta = 0$ switches the reference model off. The lab also offers PPO's entropy bonus: $c_H$ times the token entropies, averaged like the per-token objectives (loss type, below), is added to the objective ($c_H = 0$ by default; TRL 1.x's GRPOConfig has it as entropy_coef, averaged over all completion tokens whatever the loss type; TRL 0.x's GRPO has none).`,
    },
    {
      label: "KL estimator k3",
      tex: t`\begin{gathered} k_3 = (u_t - 1) - \ell_t \\[0.35em] \ell_t = \log\pi_{\text{ref}}(y_t) - \log\pi_\theta(y_t), \qquad u_t = e^{\ell_t} \end{gathered}`,
      note: t`Never negative per token; unbiased for $\mathrm{KL}(\pi_\theta \,\|\, \pi_{\text{ref}})$ when the tokens come from $\pi_\theta$ (the first of μ iterations). Used as a loss, its gradient is not exactly the KL's.`,
    },
    {
      label: "Aggregation of the per-token losses (loss type)",
      tex: t`\begin{aligned} \texttt{grpo}&:\ \frac{1}{N}\sum_i \frac{1}{|y_i|}\sum_t \mathcal{L}_{i,t} \\[0.35em] \texttt{dapo}&:\ \sum_{i,t} \mathcal{L}_{i,t} \Big/ \sum_i |y_i| \\[0.35em] \texttt{dr\_grpo}&:\ \sum_{i,t} \mathcal{L}_{i,t} \Big/ \big(N \cdot L_{\max}\big) \end{aligned}`,
      note: t`$\mathcal{L}_{i,t}$ is token $t$'s loss in completion $i$, $N$ the number of completions averaged — the whole batch, prompts × $G$, as TRL averages — and $L_{\max}$ the max tokens per completion. Per-sequence averaging (grpo) lets long wrong answers off lightly: the source of a length bias. TRL also has bnpo (the token mean over the local batch; the same as dapo on one device).`,
    },
  ],
  papers: [PAPERS.deepseekmath, PAPERS.dapo, PAPERS.drGrpo, PAPERS.ppo],
};

export const RLOO: Explanation = {
  algo: "rloo",
  summary: t`REINFORCE on whole completions, each compared with the mean score of the other completions of its prompt.`,
  plain: t`Several answers per prompt; each answer's weight is its score minus the average score of the other answers to that prompt (it is left out of its own yardstick). Then one supervised-learning step on each whole answer with that weight.`,
  paragraphs: [
    t`RLOO (REINFORCE leave-one-out) treats a whole completion as one action and uses the plain policy gradient: raise the log-probability of completions that scored better than expected, lower it for the others. The expectation comes for free: with $G$ completions per prompt, each one's baseline is the mean score of the other $G-1$, which keeps the gradient unbiased and much less noisy.`,
    t`The KL to the reference ($k_1$ summed over the completion) is subtracted from the score first. There is no value model and, with one update per batch, no clipping: it is a supervised step on the model's own samples, each weighted by its advantage $A_i$.`,
  ],
  needs: [
    t`a scalar reward per completion`,
    t`$G \ge 2$ completions per prompt`,
    t`the reference model $\pi_{\text{ref}}$ (KL in the score)`,
  ],
  formulas: [
    {
      label: "KL-penalised score",
      tex: t`R_i \leftarrow R_i - \beta \sum_t k_{1,t}`,
    },
    {
      label: "Leave-one-out advantage",
      tex: t`A_i = R_i - \frac{1}{G-1}\sum_{j \ne i} R_j`,
    },
    {
      label: "Loss",
      tex: t`L = -A_i \sum_t \log\pi_\theta(y_t)`,
      note: t`Averaged over the batch's completions; with $\mu > 1$ updates per batch the clipped surrogate replaces it.`,
    },
  ],
  papers: [PAPERS.rloo, PAPERS.williams],
};

export const REINFORCE: Explanation = {
  algo: "reinforce",
  summary: t`The original policy gradient: push up each sample's log-probability by how much its score beat a baseline.`,
  plain: t`The simplest reinforcement-learning update: a supervised-learning step on each of the model's own answers, weighted by how much its score beat a running average of recent scores (or, with ReMax, the score of the model's own most likely answer). Good answers become more likely, bad ones less.`,
  paragraphs: [
    t`REINFORCE samples one completion per prompt, scores it, and raises its log-probability in proportion to how much the score beat a baseline $b$. Think of supervised fine-tuning on the model's own samples, each weighted by its advantage $A_i$; a negative weight pushes probability away.`,
    t`The baseline here is a moving average of earlier batches' mean scores: subtracting it leaves the expected gradient unchanged but makes it far less noisy. An optional KL penalty $\beta$ (off by default) subtracts the summed $k_1$ KL to the reference from the score.`,
    t`With baseline greedy it is ReMax: $b$ is the score of the policy's own greedy (argmax) answer to the same prompt, at the cost of one more rollout per step and with no value model. That is a good baseline while the greedy answer scores near the samples' mean; when it scores far above them (a high temperature $\tau$, a reward the argmax finds at once) every advantage is negative and learning turns noisy.`,
  ],
  needs: [
    t`a scalar reward per completion`,
    t`the reference model $\pi_{\text{ref}}$ only for the KL charts, or the penalty when $\beta > 0$`,
  ],
  formulas: [
    {
      label: "Advantage",
      tex: t`A_i = R_i - b`,
      note: t`With $\beta > 0$ the score is first penalised as RLOO's: $R_i \leftarrow R_i - \beta \sum_t k_{1,t}$.`,
    },
    {
      label: "Moving-average baseline (from earlier batches only)",
      tex: t`m \leftarrow \alpha\, m + (1-\alpha)\operatorname{mean}(R), \qquad b = \frac{m}{1 - \alpha^k}`,
      note: t`$k$ batches seen, bias-corrected as in Adam; $b = 0$ for the first batch, $\alpha = 0.9$.`,
    },
    {
      label: "ReMax's greedy baseline (baseline: greedy)",
      tex: t`b_i = R\big(x_i, \bar{y}_i\big), \qquad \bar{y}_{i,t} = \arg\max_v \pi_\theta(v \mid x_i, \bar{y}_{i,<t})`,
      note: t`The greedy answer's score, with no KL term; drawn with this step's weights, before the update.`,
    },
    {
      label: "Loss",
      tex: t`L = -A_i \sum_t \log\pi_\theta(y_t)`,
    },
  ],
  papers: [PAPERS.williams, PAPERS.rloo, PAPERS.remax],
};
