/**
 * Where a `Class.member` a doc names is declared (doc_paths.test.ts): the body of `class Class`, `interface
 * Class` or `type Class = {…}` in src/, from its declaration to the matching closing brace, searched for the
 * member among the body's own lines (not a method's inner lines). A member counts only where the class itself
 * declares it: an inherited one is named by its base class (`SequencePgRun.step`, not `GrpoRun.step`), so a
 * removed override fails rather than passing on the base's method.
 */

/** One source file: its path (for messages) and text. */
export interface Source {
  path: string;
  text: string;
}

/** Modifiers a member's declaration may start with. */
const MODIFIERS =
  "(?:(?:private|protected|public|readonly|static|async|override|abstract|declare|get|set)\\s+)*";

/** The body of the first `class|interface|type Name` declared in `sources` (inside its braces), else null. */
export function declarationBody(sources: readonly Source[], name: string): string | null {
  const decl = new RegExp(
    `^\\s*(?:export\\s+)?(?:default\\s+)?(?:abstract\\s+)?(?:class|interface|type)\\s+${name}\\b`,
    "m",
  );
  for (const { text } of sources) {
    const m = decl.exec(text);
    if (!m) continue;
    const open = text.indexOf("{", m.index + m[0].length);
    if (open < 0) continue;
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
    }
    return text.slice(open + 1); // unbalanced: the rest of the file
  }
  return null;
}

/** The lines of a body at its own depth (a member's declaration, not the statements inside a method). */
function topLines(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  for (const line of body.split("\n")) {
    if (depth === 0) out.push(line);
    for (const c of line) {
      if (c === "{") depth++;
      else if (c === "}") depth--;
    }
  }
  return out;
}

/** Whether `cls`'s own body declares `member` (a method, field, accessor or property), per `sources`. */
export function declaresMember(sources: readonly Source[], cls: string, member: string): boolean {
  const body = declarationBody(sources, cls);
  if (body === null) return false;
  const re = new RegExp(`^\\s*${MODIFIERS}${member}\\s*[(:=<?!]`);
  return topLines(body).some((l) => re.test(l));
}
