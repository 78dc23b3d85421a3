/**
 * The IndexedDB database the lab saves in (src/lab/persist.ts), in a module of its own so that code which only
 * needs the name (the e2e tests' storage helpers, which Playwright's Node loader runs without the algorithm
 * registry's WGSL imports) does not load persistence and everything it imports.
 */
export const DB_NAME = "rlhf-playground-lab";
