/**
 * Explanations of the preference-learning algorithms: DPO (and its loss variants), KTO and ORPO. Formulas follow
 * ../shared/docs/algorithms.md ("DPO family", "KTO", "ORPO").
 */

import { PAPERS } from "./papers";
import type { Explanation } from "./types";

const t = String.raw;

export const DPO: Explanation = {
  algo: "dpo",
  summary: t`Learns straight from preference pairs with a logistic loss; no reward model, no RL loop.`,
  plain: t`No scores and no sampling loop: from pairs of answers where a person preferred one, make the preferred answer more likely and the other less, each measured against the starting model, with the logistic loss of a binary classifier.`,
  paragraphs: [
    t`DPO trains directly on preference pairs: a prompt $x$, a preferred completion $y_w$ and a rejected one $y_l$. Its loss is a logistic regression (binary cross-entropy) on how much more the policy raised the log-probability of $y_w$ than of $y_l$, each measured against the frozen reference model $\pi_{\text{ref}}$.`,
    t`The quantity $\beta \log \frac{\pi_\theta(y|x)}{\pi_{\text{ref}}(y|x)}$ acts as an implicit reward, and $\beta$ sets how far from the reference the policy may move to separate a pair. Pairs come from the task's preference dataset (offline) or are sampled from the current policy each step (online); either way a simulated annotator labels them from the gold scores and flips a share of the labels (the flip rate), as AlpacaFarm's noisy annotators do. Two samples the gold scores alike (two wrong sums, or the same text: over half of the online pairs at the start of arithmetic) are ordered by a coin, as a reward model's tie picks one in TRL; the More metrics chart annotator/ties shows how many; the lab also samples the policy every step, only to chart its reward, KL and entropy.`,
  ],
  needs: [
    t`preference pairs $(x, y_w, y_l)$`,
    t`the reference model's log-probs (not for SimPO)`,
    t`no reward model and no value model in the update`,
  ],
  formulas: [
    {
      label: "Log-ratio margin of a pair",
      tex: t`h = \big[\log\pi_\theta(y_w) - \log\pi_{\text{ref}}(y_w)\big] - \big[\log\pi_\theta(y_l) - \log\pi_{\text{ref}}(y_l)\big]`,
      note: t`$\log\pi(y|x)$ is the sum of the completion's token log-probs. TRL's DPOTrainer calls $h$ logits.`,
    },
    {
      label: "DPO loss (sigmoid)",
      tex: t`L = -\log\sigma(\beta h)`,
      note: t`$\beta = 0.1$; $\sigma$ is the logistic function, computed stably as $\log\sigma(z) = -\operatorname{softplus}(-z)$.`,
    },
    {
      label: "Label smoothing (cDPO)",
      tex: t`L = -(1-\varepsilon_{\text{ls}})\log\sigma(\beta h) - \varepsilon_{\text{ls}}\log\sigma(-\beta h)`,
      note: t`Assumes a share $\varepsilon_{\text{ls}}$ of the labels is flipped.`,
    },
    {
      label: "Hinge (SLiC)",
      tex: t`L = \max(0,\ 1 - \beta h)`,
      note: t`SLiC-HF's hinge (Zhao et al.) compares the policy's own log-probs, without a reference; this form, on the reference log-ratio $h$ with $1/\beta$ as the margin, is RSO's (Liu et al.) and TRL's hinge loss.`,
    },
    {
      label: "IPO",
      tex: t`L = \Big(h - \frac{1}{2\beta}\Big)^2`,
      note: t`Here the log-probs in $h$ are averaged per token, not summed (as TRL does).`,
    },
    {
      label: "SimPO (reference-free, length-normalised)",
      tex: t`L = -\log\sigma\Big(\frac{\beta}{|y_w|}\log\pi_\theta(y_w) - \frac{\beta}{|y_l|}\log\pi_\theta(y_l) - \gamma\Big)`,
      note: t`SimPO's usual $\beta = 2$, $\gamma = 0.5$: on a run card, switching the loss moves β between DPO's 0.1 and SimPO's 2 while it is at the other's (a β you chose stays).`,
    },
    {
      label: "Implicit rewards (the charts' rewards/chosen, rewards/rejected)",
      tex: t`\begin{gathered} \beta\big(\log\pi_\theta(y_w) - \log\pi_{\text{ref}}(y_w)\big) \\[0.35em] \beta\big(\log\pi_\theta(y_l) - \log\pi_{\text{ref}}(y_l)\big) \end{gathered}`,
      note: t`Their difference is the margin; accuracy is the share of pairs where the chosen one is higher (a tie counts as wrong, as in TRL: at step 1, with the policy still equal to the reference, it reads 0). IPO uses per-token averages of the log-probs; SimPO has no reference, its reward is $\beta\log\pi_\theta(y)/|y|$, so its accuracy at step 1 is not 0.`,
    },
  ],
  papers: [
    PAPERS.dpo,
    PAPERS.ipo,
    PAPERS.slic,
    PAPERS.rso,
    PAPERS.simpo,
    PAPERS.onlineDpo,
    PAPERS.alpacaFarm,
  ],
};

export const KTO: Explanation = {
  algo: "kto",
  summary: t`Learns from single completions marked good or bad, each pushed above or below a KL reference point.`,
  plain: t`Like DPO, but from answers marked just good or bad (no pairs): good answers are pushed to become more likely than a reference level, bad ones less likely.`,
  paragraphs: [
    t`KTO learns from single completions labelled desirable or undesirable instead of pairs: the thumbs-up, thumbs-down kind of feedback that is cheap to collect. Like DPO it measures a completion by its implicit reward $r_\theta = \log\pi_\theta(y|x) - \log\pi_{\text{ref}}(y|x)$ and compares it with a reference point $z_0$, an estimate of the policy's current KL to the reference.`,
    t`Desirable completions are pushed above $z_0$ and undesirable ones below it through a sigmoid of sharpness $\beta$, so gains and losses saturate as in prospect theory; $\lambda_D$ and $\lambda_U$ weigh the two kinds. In the lab the examples are the step's own samples, labelled by the simulated annotator (of two samples per prompt, the preferred one is desirable) or by a score threshold.`,
  ],
  needs: [t`completions labelled desirable or undesirable`, t`the reference model $\pi_{\text{ref}}$`],
  formulas: [
    {
      label: "Implicit reward",
      tex: t`r_\theta(x, y) = \log\pi_\theta(y|x) - \log\pi_{\text{ref}}(y|x)`,
    },
    {
      label: "Reference point (held constant, no gradient)",
      tex: t`z_0 = \max\!\Big(0,\ \operatorname{mean}_{(x, y')} r_\theta(x, y')\Big)`,
      note: t`The mean runs over mismatched pairs $(x, y')$ of the batch: a prompt with another prompt's completion.`,
    },
    {
      label: "Loss per example (mean over all examples)",
      tex: t`\begin{aligned} \text{desirable}&:\ \lambda_D\big(1 - \sigma(\beta(r_\theta - z_0))\big) \\[0.35em] \text{undesirable}&:\ \lambda_U\big(1 - \sigma(\beta(z_0 - r_\theta))\big) \end{aligned}`,
      note: t`$\beta = 0.1$, $\lambda_D = \lambda_U = 1$.`,
    },
  ],
  papers: [PAPERS.kto, PAPERS.alpacaFarm],
};

export const ORPO: Explanation = {
  algo: "orpo",
  summary: t`Supervised fine-tuning on the preferred completion plus an odds-ratio preference term; no reference model.`,
  plain: t`Ordinary supervised fine-tuning on the preferred answer, plus a term that makes the preferred answer's odds higher than the rejected one's. It needs no frozen copy of the starting model.`,
  paragraphs: [
    t`ORPO folds preference learning into supervised fine-tuning and needs no reference model. Its loss is the usual cross-entropy on the chosen completion plus a term that raises the odds of the chosen completion relative to the rejected one.`,
    t`The odds of a completion are $P/(1-P)$, with $P$ the exponential of its mean token log-prob, and the preference term is a logistic loss on the difference of the two log-odds; $\lambda$ weighs it against the SFT term. In the lab the pairs are sampled from the current policy each step and labelled by the simulated annotator; the reference model is used only to chart the KL.`,
  ],
  needs: [t`preference pairs $(x, y_w, y_l)$`, t`no reference model in the loss`],
  formulas: [
    {
      label: "Length-normalised log-probability",
      tex: t`\log P(y|x) = \frac{1}{|y|}\sum_t \log\pi_\theta(y_t)`,
    },
    {
      label: "Log-odds",
      tex: t`\log\operatorname{odds}(y) = \log P - \log\big(1 - \exp(\log P)\big)`,
      note: t`Computed with $\operatorname{log1p}(-\exp(\cdot))$ for stability.`,
    },
    {
      label: "Loss",
      tex: t`L = L_{\text{SFT}}(y_w) + \lambda\cdot\Big(-\log\sigma\big(\log\operatorname{odds}(y_w) - \log\operatorname{odds}(y_l)\big)\Big)`,
      note: t`$L_{\text{SFT}}$ is the mean token cross-entropy of the chosen completion; $\lambda = 0.1$.`,
    },
  ],
  papers: [PAPERS.orpo, PAPERS.alpacaFarm],
};
