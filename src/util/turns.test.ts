import { describe, expect, it } from "vitest";
import { Turns } from "./turns";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Turns", () => {
  it("runs pieces in the order asked for, a slow one first holding back a fast one; a failure does not stop the next", async () => {
    const t = new Turns();
    const done: string[] = [];
    const slow = t.take(async () => {
      await wait(20);
      done.push("proxy");
    });
    const failing = t.take(() => {
      throw new Error("no");
    });
    const fast = t.take(() => done.push("gold"));
    await expect(failing).rejects.toThrow("no");
    await Promise.all([slow, fast]);
    expect(done).toEqual(["proxy", "gold"]);
    expect(await t.take(async () => 7)).toBe(7);
  });
});
