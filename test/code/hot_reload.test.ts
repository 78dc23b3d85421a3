/**
 * Under `npx vite`, a module that holds app-wide state must reload the page when edited, not be hot-replaced
 * (src/ui/hot_reload.ts): a second store or client beside the first left the lab blank and its old worker
 * training unseen. Every module of src/ that creates such a singleton at its top level — a zustand store
 * (`= create(`), a client (`= new …Client(`), a worker (`= new Worker(`) — or that is listed in STATEFUL must
 * accept its own updates and reload through reloadForEdit. (Worker-side modules are not on the page: Vite
 * reloads it for them already.) The dev-server behaviour itself is checked by hand: e2e/dev_hmr_check.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(__dirname, "../../src");

/** Page modules whose top-level `let`s are the page's state without a store of their own (the open lab's savers). */
const STATEFUL = ["ui/lab/saving.ts"];

/** A top-level declaration that creates an app-wide singleton. */
const SINGLETON = /^(?:export )?(?:const|let) \w+(?:: [^=]+)? = (?:create\b|new \w*Client\(|new Worker\()/m;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory()
      ? files(p)
      : /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)
        ? [p]
        : [];
  });
}

/** The page's modules (src/ui), by path under src/. */
const page = files(join(SRC, "ui")).map((p) => relative(SRC, p));
const holders = page.filter((p) => SINGLETON.test(readFileSync(join(SRC, p), "utf8"))).concat(STATEFUL);

describe("modules holding app state reload the page when edited under the dev server", () => {
  it("finds the stores and the client", () => {
    expect(holders).toEqual(expect.arrayContaining(["ui/lab_store.ts", "ui/client.ts", "ui/store.ts"]));
  });

  it.each(holders)("%s accepts its own update and reloads through reloadForEdit", (p) => {
    const src = readFileSync(join(SRC, p), "utf8");
    expect(src, `${p}: add the import.meta.hot block of src/ui/hot_reload.ts`).toMatch(
      /import\.meta\.hot\.accept\(\);\s*import\.meta\.hot\.dispose\(\(\) => reloadForEdit\(/,
    );
  });

  it("the client terminates its worker before the reload", () => {
    const src = readFileSync(join(SRC, "ui/client.ts"), "utf8");
    expect(src).toContain("reloadForEdit(() => labClient.dispose())");
  });
});
