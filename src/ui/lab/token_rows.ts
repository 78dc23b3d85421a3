/**
 * The rows of a token's hover card (./TokenCard.tsx shows them).
 */
import type { TokenView } from "../../lab/protocol";
import { sig } from "./numbers";

/** A token's numbers, as its card shows them and a screen reader hears the token under the cursor. */
export function tokenRows(token: TokenView): [string, string][] {
  return [
    ["log-prob", `${sig(token.logp, 3)} nats`],
    ["probability", sig(token.prob, 3)],
    ["advantage", token.advantage === null ? "—" : sig(token.advantage, 3)],
    ["ratio π/π_old", token.ratio === null ? "—" : sig(token.ratio, 4)],
    ["KL k1 = log π/π_ref", `${sig(token.kl, 3)} nats`],
    // The same token's k3, the estimator GRPO's KL term and a PPO run set to k3 use: ≥ 0 where k1 is not.
    ["KL k3 (≥ 0)", `${sig(Math.expm1(-token.kl) + token.kl, 3)} nats`],
    ["entropy", `${sig(token.entropy, 3)} nats`],
  ];
}
