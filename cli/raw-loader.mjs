// `node --import tsx --import ./cli/raw-loader.mjs file.ts`: registers the ?raw hook (see raw-hooks.mjs).
import { register } from "node:module";

register("./raw-hooks.mjs", import.meta.url);
