/**
 * The TRL config call of every algorithm, under every option of its enum fields and the flip of each bool field,
 * names no keyword twice (a duplicate keyword argument is a SyntaxError in Python): the field tables' names, the
 * target's `fixed` keywords (TrlTarget.fixed) and adjust()'s additions together.
 */
import { describe, expect, it } from "vitest";
import { trlMapping } from "../../src/lab/export/trl_targets";
import { ALGO_IDS } from "../../src/lab/registry";
import { variants } from "../helpers/every_algorithm";

describe("the TRL config call", () => {
  for (const id of ALGO_IDS)
    it(`${id}: no keyword twice, in any variant`, () => {
      for (const v of variants(id)) {
        const names = trlMapping(id, v).args.map((a) => a.name);
        expect(names.length, `${id} ${JSON.stringify(v)}: ${names.join(", ")}`).toBe(new Set(names).size);
      }
    });
});
