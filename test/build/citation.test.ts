/**
 * CITATION.cff (GitHub's "Cite this repository") agrees with the package: the same version as package.json
 * and the licence that LICENSE grants (MIT), in CFF 1.2.0 with a title, an author and a message.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, root), "utf8");

/** A top-level scalar of the CFF file (quotes off); undefined when absent. */
function cffField(cff: string, key: string): string | undefined {
  const m = new RegExp(`^${key}:\\s*(.+)$`, "m").exec(cff);
  return m?.[1].trim().replace(/^"(.*)"$/, "$1");
}

describe("CITATION.cff", () => {
  const cff = read("CITATION.cff");
  const pkg = JSON.parse(read("package.json")) as { version: string; license: string };

  it("is CFF 1.2.0 with the lab's title, an author and a message", () => {
    expect(cffField(cff, "cff-version")).toBe("1.2.0");
    expect(cffField(cff, "title")).toBe("RLHF Playground");
    expect(cffField(cff, "message")).toBeTruthy();
    expect(cff).toMatch(/^authors:\n\s+- name: "RLHF Playground contributors"$/m);
  });

  it("has package.json's version", () => {
    expect(cffField(cff, "version")).toBe(pkg.version);
  });

  it("has LICENSE's licence (MIT), as package.json says", () => {
    expect(read("LICENSE").split("\n")[0]).toBe("MIT License");
    expect(cffField(cff, "license")).toBe("MIT");
    expect(pkg.license).toBe("MIT");
  });
});
