/**
 * The project's licence (README "Licence"): the code and the model weights our scripts make are MIT, said in
 * LICENSE, package.json and README, and README names the third-party data's own licences (AFINN-165 under
 * ODbL-1.0, Moby-Dick's text under PDDL-1.0 and CC0-1.0), as src/tasks/sentiment/licences.ts words them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const read = (file: string): string => readFileSync(join(root, file), "utf8");

describe("project licence", () => {
  it("LICENSE is the MIT licence of the RLHF Playground contributors", () => {
    const text = read("LICENSE");
    expect(text.split("\n")[0]).toBe("MIT License");
    expect(text).toContain("Copyright (c) 2026 RLHF Playground contributors");
    expect(text).toContain("Permission is hereby granted, free of charge, to any person obtaining a copy");
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('package.json says "license": "MIT"', () => {
    expect(JSON.parse(read("package.json")).license).toBe("MIT");
  });

  it("README has a Licence section naming MIT and the data's own licences", () => {
    const readme = read("README.md");
    const at = readme.indexOf("\n## Licence\n");
    expect(at).toBeGreaterThan(0);
    const next = readme.indexOf("\n## ", at + 1);
    const section = readme.slice(at, next < 0 ? undefined : next);
    expect(section).toMatch(/MIT/);
    expect(section).toContain("[LICENSE](LICENSE)");
    expect(section).toMatch(
      /AFINN-165\*\* by Finn Årup Nielsen \(DTU\), Open Database License \(ODbL\) v1\.0/,
    );
    expect(section).toMatch(/made with data from AFINN-165, which is made available under the ODbL/);
    expect(section).toMatch(/Moby-Dick[\s\S]*\(PDDL\) v1\.0[\s\S]*\(CC0\) v1\.0/);
  });
});
