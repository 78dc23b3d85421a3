/**
 * Two copies of the lab on one origin (user.github.io/labA/ and /labB/) keep their own saved sessions
 * (src/lab/storage_scope.ts): /labB/ once restored /labA/'s experiment. At the origin's root the names stay as
 * they were, so every saved session survives the upgrade.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { DB_NAME, labDbName } from "../../src/lab/db_name";
import { pageStorage, REACHED_KEY } from "../../src/lab/reached";
import { appDirectory, scopedName, scopedStorage } from "../../src/lab/storage_scope";
import { SAVING_CHANNEL } from "../../src/ui/lab/saving_tabs";

afterEach(() => vi.unstubAllGlobals());

/** A Storage in memory. */
function memory() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe("the deployment's directory (the build's base is ./)", () => {
  it("is the directory of index.html: / at the root, /a/ for /a/ and /a/index.html alike", () => {
    expect(appDirectory("http://localhost:4173/", "./")).toBe("/");
    expect(appDirectory("http://localhost:4173/index.html#s=abc", "./")).toBe("/");
    expect(appDirectory("https://u.github.io/a/", "./")).toBe("/a/");
    expect(appDirectory("https://u.github.io/a/index.html?x=1#s=abc", "./")).toBe("/a/");
    expect(appDirectory("https://u.github.io/course/2025/", "./")).toBe("/course/2025/");
    // vite dev (base "/") and no document (Node, a worker): the root's names.
    expect(appDirectory("http://localhost:5173/x/", "/")).toBe("/");
    expect(appDirectory(undefined, "./")).toBe("/");
  });
});

describe("storage names", () => {
  it("at the origin's root: exactly the names saved sessions were kept under", () => {
    expect(scopedName(DB_NAME, "/")).toBe("rlhf-playground-lab");
    expect(scopedName(SAVING_CHANNEL, "/")).toBe("rlhf-playground-lab-saving");
    const store = memory();
    expect(scopedStorage(store, "/")).toBe(store);
    // In vitest (base "/", no document) the defaults are the root's.
    expect(labDbName()).toBe("rlhf-playground-lab");
  });

  it("/a/ and /b/ get different names; /a/ and /a/index.html the same", () => {
    const a = scopedName(DB_NAME, appDirectory("https://u.github.io/a/", "./"));
    const b = scopedName(DB_NAME, appDirectory("https://u.github.io/b/", "./"));
    expect(a).toBe("rlhf-playground-lab@/a/");
    expect(b).not.toBe(a);
    expect(a).not.toBe(DB_NAME);
    expect(scopedName(DB_NAME, appDirectory("https://u.github.io/a/index.html", "./"))).toBe(a);
    expect(scopedName(SAVING_CHANNEL, "/a/")).not.toBe(scopedName(SAVING_CHANNEL, "/b/"));
  });

  it("sessionStorage keys: one tab going from /a/ to /b/ does not read /a/'s records", () => {
    const store = memory();
    scopedStorage(store, "/a/").setItem(REACHED_KEY, "a's");
    expect(scopedStorage(store, "/a/").getItem(REACHED_KEY)).toBe("a's");
    expect(scopedStorage(store, "/b/").getItem(REACHED_KEY)).toBeNull();
    expect(store.getItem(REACHED_KEY)).toBeNull();
    scopedStorage(store, "/a/").removeItem(REACHED_KEY);
    expect(store.data.size).toBe(0);
  });

  it("the page's storage and database are scoped by the page's own directory", () => {
    const store = memory();
    vi.stubGlobal("document", { baseURI: "https://u.github.io/labA/index.html" });
    vi.stubGlobal("window", { sessionStorage: store });
    vi.stubEnv("BASE_URL", "./");
    expect(labDbName()).toBe("rlhf-playground-lab@/labA/");
    pageStorage()?.setItem(REACHED_KEY, "x");
    expect([...store.data.keys()]).toEqual(["rlhf-playground:reached@/labA/"]);
    vi.unstubAllEnvs();
  });
});
