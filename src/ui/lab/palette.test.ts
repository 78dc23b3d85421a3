import { beforeEach, describe, expect, it } from "vitest";
import { colourMap, freeColour, RUN_COLOURS, resetColours, runLooks, withColours } from "./palette";

const ids = (...xs: string[]) => xs.map((id) => ({ id }));

describe("run colours", () => {
  beforeEach(resetColours);

  it("a fresh page colours runs in order", () => {
    expect(colourMap(ids("a", "b", "c"))).toEqual({
      a: "var(--run-0)",
      b: "var(--run-1)",
      c: "var(--run-2)",
    });
  });

  it("removing a run repaints no other run; a new run takes the lowest free colour", () => {
    colourMap(ids("a", "b", "c"));
    expect(colourMap(ids("a", "c"))).toEqual({ a: "var(--run-0)", c: "var(--run-2)" });
    expect(colourMap(ids("a", "c", "d"))).toEqual({
      a: "var(--run-0)",
      c: "var(--run-2)",
      d: "var(--run-1)",
    });
    // Reordering keeps colours too.
    expect(colourMap(ids("d", "c", "a"))).toEqual({
      a: "var(--run-0)",
      c: "var(--run-2)",
      d: "var(--run-1)",
    });
  });

  it("more runs than colours wrap around the palette", () => {
    const many = ids(...Array.from({ length: RUN_COLOURS + 2 }, (_, i) => `r${i}`));
    const m = colourMap(many);
    expect(m.r0).toBe("var(--run-0)");
    expect(m[`r${RUN_COLOURS}`]).toBe("var(--run-0)");
    expect(m[`r${RUN_COLOURS + 1}`]).toBe("var(--run-1)");
  });

  it("a run's recorded colour wins, on a fresh page too (a reload or a shared link)", () => {
    // After "b" was removed, "c" recorded slot 2: a fresh page (no memory) still paints it 2, not 1.
    const runs = [{ id: "a", colour: 0 }, { id: "c", colour: 2 }, { id: "d" }];
    expect(colourMap(runs)).toEqual({ a: "var(--run-0)", c: "var(--run-2)", d: "var(--run-1)" });
    resetColours();
    expect(colourMap(runs.slice(0, 2))).toEqual({ a: "var(--run-0)", c: "var(--run-2)" });
    // A recorded colour an earlier run already has (an imported run) yields: the later run takes a free one.
    resetColours();
    expect(
      colourMap([
        { id: "a", colour: 3 },
        { id: "b", colour: 3 },
      ]),
    ).toEqual({
      a: "var(--run-3)",
      b: "var(--run-0)",
    });
    expect(
      freeColour([
        { id: "a", colour: 0 },
        { id: "c", colour: 2 },
      ]),
    ).toBe(1);
  });

  it("past the palette's 7 colours a run keeps a slot of its own, so a reload in another order paints the same", () => {
    // 9 runs: slots 0–8 recorded (the 8th and 9th show colours 0 and 1 again); a reload lists them reversed.
    const nine = withColours<{ id: string; colour?: number }>(
      ids(...Array.from({ length: 9 }, (_, i) => `r${i}`)),
    );
    expect(nine.map((r) => r.colour)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const before = colourMap(nine);
    resetColours();
    const after = colourMap([...nine].reverse());
    expect(after).toEqual(before);
    expect(after.r7).toBe("var(--run-0)");
    expect(freeColour(nine)).toBe(9);
  });

  it("withColours records each run's current slot and keeps runs that have it as they are", () => {
    colourMap(ids("a", "b", "c"));
    const recorded = withColours([{ id: "a" }, { id: "c" }]);
    expect(recorded).toEqual([
      { id: "a", colour: 0 },
      { id: "c", colour: 2 },
    ]);
    const again = withColours(recorded);
    expect(again[0]).toBe(recorded[0]);
    expect(again[1]).toBe(recorded[1]);
  });

  it("a slot past the palette is drawn dotted, and is left for a free colour as soon as there is one", () => {
    const many = ids(...Array.from({ length: RUN_COLOURS + 1 }, (_, i) => `r${i}`));
    const looks = runLooks(many);
    expect(looks.r0).toEqual({ colour: "var(--run-0)", dotted: false, shape: "circle" });
    expect(looks[`r${RUN_COLOURS}`]).toEqual({ colour: "var(--run-0)", dotted: true, shape: "circle" });
    // Runs removed (here a new experiment keeps 4 of them, the fork recorded slot 7): no clash with PPO's colour.
    resetColours();
    const kept = [
      { id: "ppo", colour: 0 },
      { id: "dpo", colour: 1 },
      { id: "grpo", colour: 2 },
      { id: "grpo-2", colour: RUN_COLOURS },
    ];
    expect(runLooks(kept)["grpo-2"]).toEqual({ colour: "var(--run-3)", dotted: false, shape: "diamond" });
    expect(withColours(kept)[3].colour).toBe(3);
    // On the same page too: once a run is removed, the dotted one takes its colour.
    colourMap(many);
    const left = many.filter((r) => r.id !== "r2");
    expect(runLooks(left)[`r${RUN_COLOURS}`]).toEqual({
      colour: "var(--run-2)",
      dotted: false,
      shape: "triangle",
    });
  });

  it("never gives two runs the same colour and line style, even from a crafted link", () => {
    const taken = Array.from({ length: RUN_COLOURS }, (_, i) => ({ id: `c${i}`, colour: i }));
    const looks = runLooks([
      ...taken,
      { id: "x", colour: RUN_COLOURS },
      { id: "y", colour: 2 * RUN_COLOURS },
    ]);
    expect(looks.x).toEqual({ colour: "var(--run-0)", dotted: true, shape: "circle" });
    expect(looks.y).toEqual({ colour: "var(--run-1)", dotted: true, shape: "square" });
    const all = Object.values(looks).map((l) => `${l.colour}${l.dotted}`);
    expect(new Set(all).size).toBe(all.length);
  });
});
