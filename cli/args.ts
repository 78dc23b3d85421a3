/**
 * Command lines of the Node tools (cli/, scripts/) through Node's `util.parseArgs`, strict: an unknown option
 * (a typo such as `--step 5`), an option without its value or a stray argument is refused with the tool's usage
 * before any work starts, `--help` / `-h` prints the usage, and the values every tool needs are checked up front
 * (whole numbers, numbers, lists, writable output paths), so a bad one fails in a second with its name, not
 * after minutes of training (or, for an output path, with a stack trace once the training is done).
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { dirname } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { DECIMAL_NUMBER } from "../src/algorithms/fields";
import { errorMessage } from "../src/util/errors";

/** `--help` was asked for: print `usage` (to stdout) and exit 0. */
export class UsageRequest extends Error {
  constructor(readonly usage: string) {
    super(usage);
  }
}

/** A command line as read: single options by name, repeatable ones (`lists`) as arrays, and positionals. */
export interface Args {
  values: Record<string, string | undefined>;
  lists: Record<string, string[]>;
  positionals: string[];
}

/**
 * Read `argv` (without the node and script paths): `options` take one value each, `lists` may repeat
 * (`--set a=1 --set b=2`), `flags` take none (read back as "yes" when given, else undefined), at most
 * `positionals` bare arguments.
 * @throws UsageRequest on --help (with `help`, or `usage` when there is none, given `parsed`'s values); RangeError
 *   naming the problem, then `usage`, on anything else unknown.
 */
export function readArgs(
  argv: readonly string[],
  spec: {
    options: readonly string[];
    lists?: readonly string[];
    flags?: readonly string[];
    positionals?: number;
    usage: string;
    help?: (values: Record<string, unknown>) => string;
  },
): Args {
  const options: NonNullable<ParseArgsConfig["options"]> = { help: { type: "boolean", short: "h" } };
  for (const n of spec.options) options[n] = { type: "string" };
  for (const n of spec.lists ?? []) options[n] = { type: "string", multiple: true };
  for (const n of spec.flags ?? []) options[n] = { type: "boolean" };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new RangeError(`${firstSentence(e)}\n${spec.usage}`);
  }
  if (parsed.values.help) throw new UsageRequest(spec.help?.(parsed.values) ?? spec.usage);
  const most = spec.positionals ?? 0;
  if (parsed.positionals.length > most)
    throw new RangeError(`unexpected argument "${parsed.positionals[most]}"\n${spec.usage}`);
  for (const [k, v] of Object.entries(parsed.values))
    if (v === "" || (Array.isArray(v) && v.includes("")))
      throw new RangeError(`--${k} needs a value, got ""\n${spec.usage}`);
  const values: Record<string, string | undefined> = {};
  const lists: Record<string, string[]> = {};
  for (const n of spec.options) values[n] = parsed.values[n] as string | undefined;
  for (const n of spec.flags ?? []) values[n] = parsed.values[n] ? "yes" : undefined;
  for (const n of spec.lists ?? []) lists[n] = (parsed.values[n] as string[] | undefined) ?? [];
  return { values, lists, positionals: parsed.positionals };
}

/**
 * Node's parseArgs for a script with its own option table (typed as parseArgs types it), plus `--help` / `-h`,
 * which prints `usage` and exits 0, and a refusal of anything unknown that prints the problem and `usage` and
 * exits 2 (the scripts' code for bad input), in place of parseArgs's stack trace.
 */
export function scriptArgs<T extends ParseArgsConfig>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ ...config, options: { ...config.options, help: { type: "boolean", short: "h" } } });
  } catch (e) {
    console.error(`${firstSentence(e)}\n${usage}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed as ReturnType<typeof parseArgs<T>>;
}

/**
 * A script's checks of its values (the helpers below) before any work: their first refusal is printed and the
 * process exits 2, as scriptArgs does for an unknown option. Returns what `check` returns.
 */
export function checkedInput<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  }
}

/** The first sentence of parseArgs's message ("Unknown option '--step'"), without its advice on dashes. */
function firstSentence(e: unknown): string {
  const m = errorMessage(e);
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(m);
  if (ambiguous) return `${ambiguous[1]} needs a value (one that starts with a dash: ${ambiguous[1]}=-1)`;
  return m.split("\n")[0].replace(/\. (To specify|This command).*$/, "");
}

/**
 * `--name`'s whole number, `fallback` when absent.
 * @throws RangeError unless it is written as an integer in [min, max] ("abc", "1.5", "-3" for min 0).
 */
export function wholeNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!/^\s*[+-]?\d+\s*$/.test(raw) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in [${min}, ${max}]`;
    throw new RangeError(`--${name} must be a whole number ${range}, got "${raw}"`);
  }
  return v;
}

/** `--name`'s number, `fallback` when absent. @throws RangeError unless finite and in [min, max]. */
export function realNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!DECIMAL_NUMBER.test(raw.trim()) || !Number.isFinite(v) || v < min || v > max)
    throw new RangeError(`--${name} must be a number in [${min}, ${max}], got "${raw}"`);
  return v;
}

/**
 * `--name`'s comma-separated whole numbers ("0,1,2") in [min, max], `fallback` when absent.
 * @throws RangeError on any other.
 */
export function wholeNumbers(
  name: string,
  raw: string | undefined,
  fallback: number[],
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number[] {
  if (raw === undefined) return fallback;
  const parts = raw.split(",");
  try {
    return parts.map((p) => wholeNumber(name, p, 0, min, max));
  } catch {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in [${min}, ${max}]`;
    throw new RangeError(`--${name} must be whole numbers ${range} separated by commas, got "${raw}"`);
  }
}

/**
 * Make sure a file can be written at `path` before the work that ends by writing it: its folder is made, and
 * the file is opened for appending once (and removed again when it was not there).
 * @throws RangeError naming `--name` and the system's reason (a folder, no permission, a file in the way).
 */
export function writableFile(name: string, path: string): void {
  try {
    if (existsSync(path) && statSync(path).isDirectory()) throw new Error("it is a folder");
    mkdirSync(dirname(path), { recursive: true });
    const existed = existsSync(path);
    closeSync(openSync(path, "a"));
    if (!existed) unlinkSync(path);
  } catch (e) {
    throw new RangeError(`--${name} ${path}: cannot write there (${e instanceof Error ? e.message : e})`);
  }
}

/** Make sure files can be written under the folder `path` (made when missing). @throws RangeError otherwise. */
export function writableFolder(name: string, path: string): void {
  try {
    mkdirSync(path, { recursive: true });
    if (!statSync(path).isDirectory()) throw new Error("it is a file");
    accessSync(path, constants.W_OK);
  } catch (e) {
    throw new RangeError(`--${name} ${path}: cannot write there (${e instanceof Error ? e.message : e})`);
  }
}

/**
 * Run a tool's `main` (its exit code, or nothing for 0): --help prints the usage and exits 0; an error prints
 * `tool: message` (no stack: the messages name what is wrong) and exits 1.
 */
export function runTool(tool: string, main: () => Promise<number | undefined>): void {
  main().then(
    (code) => process.exit(code ?? process.exitCode ?? 0),
    (e) => {
      if (e instanceof UsageRequest) {
        console.log(e.usage);
        process.exit(0);
      }
      console.error(`${tool}: ${e instanceof Error ? e.message : e}`);
      process.exit(1);
    },
  );
}
