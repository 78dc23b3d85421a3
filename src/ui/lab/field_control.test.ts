/**
 * FieldControl's markup (server-rendered, no DOM): a note under a control (adaptive β's current value) is tied to
 * the control with aria-describedby, so a screen reader reads it with the control; without a note, no reference
 * to one. A number's range and default are its description too (the name's card shows them only on focus).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PPO_FIELDS } from "../../algorithms/ppo_fields";
import { RUN_FIELDS } from "../../lab/settings";
import { FieldControl } from "./FieldControl";
import { missingRewards } from "./reward_models";

const field = (key: string) => {
  const f = PPO_FIELDS.find((x) => x.key === key);
  if (!f) throw new Error(key);
  return f;
};

describe("FieldControl", () => {
  it("describes the number, its slider, a select and a switch by the note under them", () => {
    for (const key of ["beta", "valueModel", "adaptiveKl"]) {
      const html = renderToStaticMarkup(
        createElement(FieldControl, {
          runId: "ppo-1",
          field: field(key),
          value: field(key).default,
          locked: null,
          note: "adaptive: β = 0.2 at step 3",
        }),
      );
      const id = `knob-ppo-1-${key}-note`;
      expect(html, key).toContain(`<p class="knob-note" id="${id}"`);
      const refs = html.match(new RegExp(`aria-describedby="${id}( [^"]*)?"`, "g")) ?? [];
      // beta: slider and typed number; a select or a switch: one control.
      expect(refs.length, key).toBe(key === "beta" ? 2 : 1);
    }
  });

  it("has no note without one; a number is described by its range and default, a select by nothing", () => {
    const html = renderToStaticMarkup(
      createElement(FieldControl, { runId: "ppo-1", field: field("beta"), value: 0.05, locked: null }),
    );
    expect(html).not.toContain("knob-note");
    expect(html.match(/aria-describedby="knob-ppo-1-beta-range"/g)).toHaveLength(2);
    expect(html).toContain(
      '<span class="visually-hidden" id="knob-ppo-1-beta-range">range [0, 10] (log scale), default 0.05</span>',
    );
    const select = renderToStaticMarkup(
      createElement(FieldControl, {
        runId: "ppo-1",
        field: field("valueModel"),
        value: "shared",
        locked: null,
      }),
    );
    expect(select).not.toContain("aria-describedby");
  });

  it("keeps a number's slider out of the Tab order (the number beside it takes the same ↑/↓ steps)", () => {
    const html = renderToStaticMarkup(
      createElement(FieldControl, { runId: "ppo-1", field: field("beta"), value: 0.05, locked: null }),
    );
    expect(html).toMatch(/<input type="range"[^>]*tabindex="-1"/);
    expect(html).not.toMatch(/<input type="text"[^>]*tabindex/);
  });

  it("offers a reward with nothing behind it disabled, saying what to do first; the run's own stays pickable", () => {
    const reward = RUN_FIELDS[0];
    const render = (value: string, customLoaded: boolean, handedOff: boolean) =>
      renderToStaticMarkup(
        createElement(FieldControl, {
          runId: "grpo-1",
          field: reward,
          value,
          locked: null,
          unavailable: missingRewards(customLoaded, handedOff),
        }),
      );
    const none = render("gold", false, false);
    expect(none).toContain('<option value="gold" selected="">gold</option>');
    expect(none).toContain('<option value="proxy">proxy</option>');
    expect(none).toContain(
      '<option value="custom" disabled="">custom (load an .onnx with Load RM first)</option>',
    );
    expect(none).toContain(
      '<option value="pipeline" disabled="">pipeline (train it in the Pipeline, then Use in RL)</option>',
    );
    const both = render("gold", true, true);
    expect(both).not.toContain("disabled");
    // A run on a custom model whose worker was ended keeps it shown (its error says why), not greyed out.
    expect(render("custom", false, true)).toContain('<option value="custom" selected="">custom</option>');
  });
});
