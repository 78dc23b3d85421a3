/**
 * Why a reward source cannot be had (shown as the command's error). Its own module, free of GPU code, so that
 * messages about reward sources (./csp_blocked.ts) load where WGSL cannot (the e2e specs' Node, through
 * ./rm_isolated.ts); ./reward_sources.ts re-exports it.
 */
export class RewardSourceError extends Error {
  override readonly name = "RewardSourceError";
}
