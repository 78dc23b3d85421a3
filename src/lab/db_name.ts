/**
 * The IndexedDB database the lab saves in (src/lab/persist.ts), in a module of its own so that code which only
 * needs the name (the e2e tests' storage helpers, which Playwright's Node loader runs without the algorithm
 * registry's WGSL imports) does not load persistence and everything it imports. Scoped by the deployment's
 * directory (./storage_scope.ts): two copies of the lab on one origin keep their own sessions.
 */
import { scopedName } from "./storage_scope";

/** The database's name at the origin's root (the e2e tests' server, every deployment before scoping). */
export const DB_NAME = "rlhf-playground-lab";

/** The database of this deployment: {@link DB_NAME} at the origin's root, "rlhf-playground-lab@/labA/" in /labA/. */
export const labDbName = (): string => scopedName(DB_NAME);
