/**
 * The papers the explain panels and the lesson cards cite, one entry each (arXiv abstract pages, or the
 * publisher's DOI for papers that predate arXiv), so an id is written once and every panel links the same page;
 * a lesson's reference finds its paper by URL ({@link paperAt}), for its Copy BibTeX.
 */
export interface Paper {
  /** "Schulman et al." (as the panels show it). */
  authors: string;
  /** Every author in order, "First Last", where known for sure (the BibTeX uses it; else `authors`). */
  authorList?: readonly string[];
  year: number;
  /** As published; a trailing note in parentheses ("(GRPO)") is the lab's, left out of the BibTeX. */
  title: string;
  /** https://arxiv.org/abs/<id> or https://doi.org/<doi>. */
  url: string;
  /** The conference's proceedings, where known (the BibTeX is then @inproceedings). */
  venue?: string;
  /** The journal it appeared in, where known (the BibTeX is then @article): name, volume, pages "229–256". */
  journal?: { name: string; volume: string; pages: string };
}

const arxiv = (id: string) => `https://arxiv.org/abs/${id}`;

export const PAPERS = {
  ppo: {
    authors: "Schulman et al.",
    year: 2017,
    authorList: ["John Schulman", "Filip Wolski", "Prafulla Dhariwal", "Alec Radford", "Oleg Klimov"],
    title: "Proximal Policy Optimization Algorithms",
    url: arxiv("1707.06347"),
  },
  gae: {
    authors: "Schulman et al.",
    year: 2016,
    authorList: ["John Schulman", "Philipp Moritz", "Sergey Levine", "Michael Jordan", "Pieter Abbeel"],
    title: "High-Dimensional Continuous Control Using Generalized Advantage Estimation",
    url: arxiv("1506.02438"),
  },
  ziegler: {
    authors: "Ziegler et al.",
    year: 2019,
    title: "Fine-Tuning Language Models from Human Preferences",
    url: arxiv("1909.08593"),
  },
  stiennon: {
    authors: "Stiennon et al.",
    year: 2020,
    title: "Learning to summarize from human feedback",
    url: arxiv("2009.01325"),
  },
  instructgpt: {
    authors: "Ouyang et al.",
    year: 2022,
    title: "Training language models to follow instructions with human feedback",
    url: arxiv("2203.02155"),
  },
  nPlus: {
    authors: "Huang et al.",
    year: 2024,
    title: "The N+ Implementation Details of RLHF with PPO: A Case Study on TL;DR Summarization",
    url: arxiv("2403.17031"),
  },
  deepseekmath: {
    authors: "Shao et al.",
    year: 2024,
    title: "DeepSeekMath: Pushing the Limits of Mathematical Reasoning in Open Language Models (GRPO)",
    url: arxiv("2402.03300"),
  },
  dapo: {
    authors: "Yu et al.",
    year: 2025,
    title: "DAPO: An Open-Source LLM Reinforcement Learning System at Scale",
    url: arxiv("2503.14476"),
  },
  drGrpo: {
    authors: "Liu et al.",
    year: 2025,
    title: "Understanding R1-Zero-Like Training: A Critical Perspective (Dr. GRPO)",
    url: arxiv("2503.20783"),
  },
  rloo: {
    authors: "Ahmadian et al.",
    year: 2024,
    title: "Back to Basics: Revisiting REINFORCE Style Optimization for Learning from Human Feedback in LLMs",
    url: arxiv("2402.14740"),
  },
  williams: {
    authors: "Williams",
    year: 1992,
    authorList: ["Ronald J. Williams"],
    title: "Simple Statistical Gradient-Following Algorithms for Connectionist Reinforcement Learning",
    url: "https://doi.org/10.1007/BF00992696",
    journal: { name: "Machine Learning", volume: "8", pages: "229–256" },
  },
  remax: {
    authors: "Li et al.",
    year: 2023,
    title:
      "ReMax: A Simple, Effective, and Efficient Reinforcement Learning Method for Aligning Large Language Models",
    url: arxiv("2310.10505"),
  },
  dpo: {
    authors: "Rafailov et al.",
    year: 2023,
    authorList: [
      "Rafael Rafailov",
      "Archit Sharma",
      "Eric Mitchell",
      "Stefano Ermon",
      "Christopher D. Manning",
      "Chelsea Finn",
    ],
    title: "Direct Preference Optimization: Your Language Model is Secretly a Reward Model",
    url: arxiv("2305.18290"),
  },
  slic: {
    authors: "Zhao et al.",
    year: 2023,
    title: "SLiC-HF: Sequence Likelihood Calibration with Human Feedback",
    url: arxiv("2305.10425"),
  },
  rso: {
    authors: "Liu et al.",
    year: 2023,
    title: "Statistical Rejection Sampling Improves Preference Optimization (RSO)",
    url: arxiv("2309.06657"),
  },
  ipo: {
    authors: "Azar et al.",
    year: 2023,
    title: "A General Theoretical Paradigm to Understand Learning from Human Preferences (IPO)",
    url: arxiv("2310.12036"),
  },
  simpo: {
    authors: "Meng et al.",
    year: 2024,
    title: "SimPO: Simple Preference Optimization with a Reference-Free Reward",
    url: arxiv("2405.14734"),
  },
  onlineDpo: {
    authors: "Guo et al.",
    year: 2024,
    title: "Direct Language Model Alignment from Online AI Feedback",
    url: arxiv("2402.04792"),
  },
  alpacaFarm: {
    authors: "Dubois et al.",
    year: 2023,
    title: "AlpacaFarm: A Simulation Framework for Methods that Learn from Human Feedback",
    url: arxiv("2305.14387"),
  },
  gao: {
    authors: "Gao et al.",
    year: 2022,
    authorList: ["Leo Gao", "John Schulman", "Jacob Hilton"],
    title: "Scaling Laws for Reward Model Overoptimization",
    url: arxiv("2210.10760"),
  },
  beirami: {
    authors: "Beirami et al.",
    year: 2024,
    title: "Theoretical guarantees on the best-of-n alignment policy",
    url: arxiv("2401.01879"),
  },
  expertIteration: {
    authors: "Anthony et al.",
    year: 2017,
    title: "Thinking Fast and Slow with Deep Learning and Tree Search (expert iteration)",
    url: arxiv("1705.08439"),
  },
  rft: {
    authors: "Yuan et al.",
    year: 2023,
    title: "Scaling Relationship on Learning Mathematical Reasoning with Large Language Models (RFT)",
    url: arxiv("2308.01825"),
  },
  kto: {
    authors: "Ethayarajh et al.",
    year: 2024,
    title: "KTO: Model Alignment as Prospect Theoretic Optimization",
    url: arxiv("2402.01306"),
  },
  orpo: {
    authors: "Hong et al.",
    year: 2024,
    title: "ORPO: Monolithic Preference Optimization without Reference Model",
    url: arxiv("2403.07691"),
  },
  safeRlhf: {
    authors: "Dai et al.",
    year: 2023,
    title: "Safe RLHF: Safe Reinforcement Learning from Human Feedback",
    url: arxiv("2310.12773"),
  },
  pidLagrangian: {
    authors: "Stooke, Achiam & Abbeel",
    year: 2020,
    authorList: ["Adam Stooke", "Joshua Achiam", "Pieter Abbeel"],
    title: "Responsive Safety in Reinforcement Learning by PID Lagrangian Methods",
    url: arxiv("2007.03964"),
  },
  // Cited by the lessons (src/lab/presets/lessons_*.ts).
  entropyMechanism: {
    authors: "Cui et al.",
    year: 2025,
    title: "The Entropy Mechanism of Reinforcement Learning for Reasoning Language Models",
    url: arxiv("2505.22617"),
  },
  smaug: {
    authors: "Pal et al.",
    year: 2024,
    authorList: [
      "Arka Pal",
      "Deep Karkhanis",
      "Samuel Dooley",
      "Manley Roberts",
      "Siddartha Naidu",
      "Colin White",
    ],
    title: "Smaug: Fixing Failure Modes of Preference Optimisation with DPO-Positive",
    url: arxiv("2402.13228"),
  },
  likelihoodDisplacement: {
    authors: "Razin et al.",
    year: 2024,
    authorList: [
      "Noam Razin",
      "Sadhika Malladi",
      "Adithya Bhaskar",
      "Danqi Chen",
      "Sanjeev Arora",
      "Boris Hanin",
    ],
    title: "Unintentional Unalignment: Likelihood Displacement in Direct Preference Optimization",
    url: arxiv("2410.08847"),
  },
  henderson: {
    authors: "Henderson et al.",
    year: 2018,
    authorList: [
      "Peter Henderson",
      "Riashat Islam",
      "Philip Bachman",
      "Joelle Pineau",
      "Doina Precup",
      "David Meger",
    ],
    title: "Deep Reinforcement Learning that Matters",
    url: arxiv("1709.06560"),
    venue: "Proceedings of the AAAI Conference on Artificial Intelligence",
  },
} as const satisfies Record<string, Paper>;

/** The paper at `url` (its arXiv abstract page or DOI link, as written here), or null: not a paper listed here. */
export function paperAt(url: string): Paper | null {
  return Object.values(PAPERS).find((p: Paper) => p.url === url) ?? null;
}
