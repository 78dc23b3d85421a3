/**
 * README: "the same command writes the same file". Rebuild each shipped SFT checkpoint's bytes from its weights
 * and the metadata `npm run pretrain` writes now (scripts/pretrain/info.ts, from the facts in its manifest
 * entry): equal weights must give the shipped sha256. The arithmetic checkpoint predates two changes to that
 * metadata (a `scheduled_steps` key and another key order), so its rebuild differs even with identical weights;
 * README names it and those changes, and this test fails if another file stops matching or README drops them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLIC_DIR, readManifest } from "../../scripts/models-manifest";
import { checkpointInfo } from "../../scripts/pretrain/info";
import { saveCheckpoint } from "../../src/model/checkpoint";
import { readCheckpointPath } from "../../src/model/checkpoint_files";

/** Shipped checkpoints written by an older pretrain metadata (README, "Shipped models"). */
const PREDATE = ["models/arithmetic/sft.safetensors"];

describe("shipped SFT checkpoints rebuilt with today's metadata", () => {
  const readme = readFileSync("README.md", "utf8").replace(/\s+/g, " ");
  for (const entry of readManifest().files.filter((f) => f.kind === "sft"))
    it(`${entry.path}: ${PREDATE.includes(entry.path) ? "differs, as README says" : "the same bytes"}`, async () => {
      const ck = await readCheckpointPath(join(PUBLIC_DIR, entry.path));
      const info = checkpointInfo({
        task: entry.task,
        backend: String(entry.backend),
        seed: Number(entry.seed),
        scheduledSteps: (entry.schedule as { steps: number }).steps,
        steps: Number(entry.steps),
        finalLoss: Number(entry.final_loss),
        dataHash: String(entry.data_hash),
      });
      const bytes = saveCheckpoint({ config: ck.config, params: ck.params, tokenizer: ck.tokenizer, info });
      const sha = createHash("sha256").update(bytes).digest("hex");
      if (!PREDATE.includes(entry.path)) {
        expect(sha, `${entry.path} rebuilt`).toBe(entry.sha256);
        return;
      }
      expect(sha).not.toBe(entry.sha256);
      // The weights and every value agree; only the key set and order differ.
      const { scheduled_steps: _s, ...rest } = info;
      expect(Object.entries(ck.info).sort()).toEqual(Object.entries(rest).sort());
      const said =
        readme.includes(`\`${entry.path}\` predates`) && /predates [^.]*`scheduled_steps`/.test(readme);
      expect(said, `README.md should say that ${entry.path} predates \`scheduled_steps\``).toBe(true);
    });
});
