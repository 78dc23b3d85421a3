/**
 * The lab's storage names, scoped by the deployment: two copies of the lab on one origin (GitHub Pages'
 * user.github.io/labA/ and /labB/; a university server with a folder per course year) share the origin's
 * IndexedDB, BroadcastChannels and sessionStorage, so fixed names made /labB/ restore /labA/'s experiment.
 *
 * A deployment is the directory its index.html is served from: `new URL(import.meta.env.BASE_URL,
 * document.baseURI).pathname` (the build's base is "./"; `vite` and vitest have "/"). At the origin's root
 * ("/": localhost dev and preview, the e2e tests, every deployment before this) a name stays exactly as it was,
 * so saved sessions survive the upgrade; elsewhere it gets the directory: "rlhf-playground-lab@/labA/".
 *
 * Scoped: the saved session (persist.ts's database), the saving tabs' channel (src/ui/lab/saving_tabs.ts) and
 * this tab's one-shot records in sessionStorage. Not scoped, on purpose: the browser's preferences (theme,
 * speed cap) and its GPU's kernel picks and self-check results, which belong to the person and the adapter, not
 * to a course (the self-checks' key already carries the build's URL).
 *
 * Page only: in a worker there is no document, and a name is left unscoped (the workers open no scoped storage).
 */

/**
 * The directory the lab's page is served from, percent-encoded, with a trailing slash: "/" at the origin's root,
 * "/labA/" for /labA/ or /labA/index.html.
 * @param pageUrl the page's base URL (default: document.baseURI; "/" when there is no document).
 * @param base the build's base (default: import.meta.env.BASE_URL, "./" in the build).
 */
export function appDirectory(
  pageUrl: string | undefined = globalThis.document?.baseURI,
  base: string = import.meta.env?.BASE_URL ?? "./",
): string {
  if (!pageUrl) return "/";
  try {
    return new URL(base, pageUrl).pathname;
  } catch {
    return "/"; // not a URL (about:blank has no directory): the root's names
  }
}

/** `name` for the deployment at `dir` (default {@link appDirectory}): unchanged at "/", else `name@dir`. */
export function scopedName(name: string, dir: string = appDirectory()): string {
  return dir === "/" ? name : `${name}@${dir}`;
}

/** The part of Storage the lab's one-shot records use. */
export type KeyedStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** `store` with every key scoped by {@link scopedName} (at the root, `store` itself). */
export function scopedStorage(store: KeyedStorage, dir: string = appDirectory()): KeyedStorage {
  if (dir === "/") return store;
  return {
    getItem: (k) => store.getItem(scopedName(k, dir)),
    setItem: (k, v) => store.setItem(scopedName(k, dir), v),
    removeItem: (k) => store.removeItem(scopedName(k, dir)),
  };
}
