/**
 * Where it saves, the lab names itself "this tab" in its own tab and "this copy of the lab" embedded in another
 * page (src/ui/lab/tab_words.ts): the notice (NoticeLine), the save indicator's tooltips and Save here button
 * (SaveState), and the confirmations' lines (keptLine, stopFirstLine, whyNotKept). Rendered with
 * react-dom/server in Node (its stores read their initial state there, so the saving-tabs hook reads `tabs`);
 * the page is stubbed as its own (no top) or a frame (another top).
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DISCARDED_LINE, frozenLine } from "../../src/ui/lab/frozen";
import { whyNotKept } from "../../src/ui/lab/keep_open";
import { NoticeLine } from "../../src/ui/lab/NoticeLine";
import { stopFirstLine } from "../../src/ui/lab/pipeline_store";
import { SaveState } from "../../src/ui/lab/SaveState";
import { keptLine, savedHereLine } from "../../src/ui/lab/saving_lines";
import {
  ELSEWHERE_TITLE,
  OWNER_GONE_LINE,
  RELOAD_LINE,
  takenOverLine,
  useSavingTabs,
} from "../../src/ui/lab/saving_tabs";
import { tabWords } from "../../src/ui/lab/tab_words";

const { tabs } = vi.hoisted(() => ({
  tabs: { state: "saves" as string, saveHere: null as (() => void) | null, ownerGone: false },
}));
vi.mock("../../src/ui/lab/saving_tabs", async (original) => {
  const real = await original<typeof import("../../src/ui/lab/saving_tabs")>();
  const useSavingTabs = Object.assign((pick: (s: typeof tabs) => unknown) => pick(tabs), {
    getState: () => tabs,
    setState: (p: Partial<typeof tabs>) => Object.assign(tabs, p),
  });
  return { ...real, useSavingTabs };
});

const ownTab = () => vi.stubGlobal("window", new EventTarget());
const embedded = () => vi.stubGlobal("window", Object.assign(new EventTarget(), { top: new EventTarget() }));
const html = (el: ReturnType<typeof createElement>) => renderToStaticMarkup(el).replace(/&#x27;/g, "'");
/** A tab the lab speaks of, but for the phrases that mean a browser tab or say both. */
const TAB = /\btabs?\b/gi;
const tabsLeft = (s: string) =>
  s
    .replace(/another tab, or another embed/g, "")
    .replace(/in another tab or frame/g, "")
    .replace(/background tabs|the lab's tab/g, "")
    .match(TAB) ?? [];
const keeping = { steps: 40, compared: 0, pipeline: false, room: null };

afterEach(() => {
  vi.unstubAllGlobals();
  useSavingTabs.setState({ state: "saves", saveHere: null, ownerGone: false });
});

/** Every line about where the lab saves, as shown. */
function lines(): string[] {
  useSavingTabs.setState({ state: "elsewhere", saveHere: () => {}, ownerGone: false });
  const elsewhere = keptLine(keeping, false);
  const why = whyNotKept();
  const indicator = html(createElement(SaveState, { playing: false, steps: 3, finishing: false }));
  useSavingTabs.setState({ ownerGone: true });
  const gone = keptLine(keeping, false);
  const goneIndicator = html(createElement(SaveState, { playing: false, steps: 3, finishing: false }));
  const notices = [
    takenOverLine("opened"),
    takenOverLine("save-here"),
    OWNER_GONE_LINE,
    savedHereLine(null),
    frozenLine(60_000),
    DISCARDED_LINE,
    "A newer version of the lab opened in another tab and now keeps this browser's runs: this tab no longer saves.",
  ].map((n) => html(createElement(NoticeLine, { text: n })));
  return [...notices, elsewhere, gone, why, stopFirstLine("SFT", false), indicator, goneIndicator];
}

describe("the lab's words for itself where it saves", () => {
  it("in its own tab: 'this tab', as written", () => {
    ownTab();
    const all = lines();
    expect(all[0]).toBe(
      `<span>Another tab opened the lab and now saves this browser's experiment: this tab no longer saves. ${RELOAD_LINE}</span>`,
    );
    expect(all.join(" ")).toContain("this tab");
    expect(all.join(" ")).not.toContain("copy of the lab");
    expect(all.at(-2)).toContain(`title="${ELSEWHERE_TITLE}"`);
  });

  it("embedded: 'this copy of the lab', never 'this tab'", () => {
    embedded();
    const all = lines();
    for (const line of all) expect(tabsLeft(line), line).toEqual([]);
    expect(all[2]).toBe(
      "<span>The copy of the lab that saved this browser's experiment was closed, left the page or is reloading: no " +
        "copy of the lab saves now, so this copy of the lab's training is not saved. Save here makes this copy of the " +
        "lab save it (what that copy of the lab saved is kept under Change… → Recent experiments).</span>",
    );
    expect(all[0]).toContain(
      "Reloading this copy of the lab returns it to what the other copy of the lab saved",
    );
    expect(all.at(-2)).toContain('title="Another copy of the lab saves this browser');
    expect(all.at(-2)).toContain('title="Make this copy of the lab the one that saves');
    expect(all.at(-4)).toBe("another copy of the lab saves this browser's experiment");
  });

  it("tabWords leaves its own words alone and is idempotent", () => {
    const said = tabWords(`${OWNER_GONE_LINE} ${RELOAD_LINE}`, true);
    expect(tabWords(said, true)).toBe(said);
    expect(tabWords(said, false)).toBe(said);
    expect(tabWords(RELOAD_LINE, false)).toBe(RELOAD_LINE);
  });
});
