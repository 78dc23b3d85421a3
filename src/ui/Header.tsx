import { ThemeToggle } from "./ThemeToggle";

export function Header() {
  return (
    <header className="header">
      <div>
        <h1>RLHF Playground</h1>
        <p className="tagline">
          Learn reinforcement learning for language models by running it: tiny models trained with PPO, DPO
          and GRPO, side by side, on your GPU, in this page.
        </p>
      </div>
      <ThemeToggle />
    </header>
  );
}
