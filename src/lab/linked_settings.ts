/**
 * The settings that follow another when it changes, for the run card and the CLI alike: a new loss brings its
 * own β, a new cost its own limit d, unless the user chose them. Pure (src/ui/lab/knobs_linked.test.ts).
 */
import { DPO_DEFAULTS } from "../algorithms/math/dpo";
import type { RunSpec, SettingValue } from "./protocol";
import { COST_LIMITS } from "./settings";

/**
 * DPO's β per loss as its paper uses it: 0.1 for DPO's sigmoid (and hinge, IPO at this scale), 2 for SimPO,
 * whose β scales length-normalised log-probs (Meng et al. 2024; the spec's default). The field has one default,
 * 0.1: the run card (and the CLI's `--set lossType=…`) moves β between these when the loss changes
 * ({@link linkedSettings}).
 */
export const LOSS_BETAS: Readonly<Record<string, number>> = {
  sigmoid: DPO_DEFAULTS.beta,
  hinge: DPO_DEFAULTS.beta,
  ipo: DPO_DEFAULTS.beta,
  simpo: DPO_DEFAULTS.simpoBeta,
};

/**
 * A change as the run card sends it (or the CLI's `--set` values, on a run of defaults), with the settings that
 * follow it: Safe RLHF's limit d moves to the new cost's suggested limit (COST_LIMITS) when the cost changes and
 * d is still the old cost's suggestion, so a switch from tokens to words does not leave d = 8 words, which the policy never reaches; DPO's β moves to the
 * new loss's (LOSS_BETAS) when the loss changes and β is still the old loss's, so SimPO does not run at DPO's
 * 0.1. A d or β the user chose stays, as does one sent with the change. Other changes pass unchanged.
 */
export function linkedSettings(
  spec: Pick<RunSpec, "algo" | "config">,
  patch: Record<string, SettingValue>,
): Record<string, SettingValue> {
  const loss = patch.lossType;
  if (spec.algo === "dpo" && typeof loss === "string" && !("beta" in patch)) {
    const beta = spec.config.beta ?? LOSS_BETAS.sigmoid;
    const was = LOSS_BETAS[String(spec.config.lossType ?? "sigmoid")];
    const next = LOSS_BETAS[loss];
    return beta === was && next !== undefined && next !== beta ? { ...patch, beta: next } : patch;
  }
  const cost = patch.cost;
  if (spec.algo !== "safe_rlhf" || typeof cost !== "string" || "costLimit" in patch) return patch;
  const prev = String(spec.config.cost ?? "length");
  const d = spec.config.costLimit ?? COST_LIMITS.length;
  const next = COST_LIMITS[cost];
  return d === COST_LIMITS[prev] && next !== undefined && next !== d ? { ...patch, costLimit: next } : patch;
}
