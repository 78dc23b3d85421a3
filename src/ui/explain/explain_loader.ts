/**
 * The explain panel's code, loaded on first use so KaTeX stays out of the main bundle (./ExplainButton.tsx opens
 * the panel; the lab prefetches it once it is up).
 */
export type Dialog = typeof import("./ExplainDialog")["default"];
let loaded: Dialog | null = null;
let pending: Promise<Dialog> | null = null;

/**
 * The panel's code (KaTeX with it): out of the main bundle, fetched once the lab is up ({@link prefetchExplain})
 * or at the first open. A failed fetch is shown in the panel's place (./ExplainWait.tsx) — React.lazy let it
 * reach the page's crash card, which stopped the training — and asked again at the next open (the bundler's
 * preloader keeps a failed stylesheet, so after a failed fetch it takes a reload).
 */
export function loadDialog(): Promise<Dialog> {
  pending ??= import("./ExplainDialog").then(
    (m) => {
      loaded = m.default;
      return m.default;
    },
    (e: unknown) => {
      pending = null;
      throw e;
    },
  );
  return pending;
}

/** The KaTeX faces the panels' formulas use (CSS font shorthands for document.fonts.load). */
const KATEX_FACES = [
  "1em KaTeX_Main",
  "bold 1em KaTeX_Main",
  "italic 1em KaTeX_Math",
  "1em KaTeX_Size1",
  "1em KaTeX_Size2",
  "1em KaTeX_AMS",
  "1em KaTeX_Caligraphic",
  "1em KaTeX_Typewriter",
];

/** The panel's component once its code has loaded, else null. */
export function loadedDialog(): Dialog | null {
  return loaded;
}

/**
 * Fetch the panel's code now, while the network is there (called once the lab is ready, when the page is idle):
 * a student who goes offline later, or a new version deployed meanwhile, still gets the explanations. Never
 * throws (a failure is shown when a panel opens).
 */
export function prefetchExplain(): void {
  loadDialog().then(
    () => {
      // The formulas' fonts too (the panel's stylesheet declares them; a browser fetches a face at first use).
      for (const face of KATEX_FACES) document.fonts?.load(face).catch(() => {});
    },
    () => {},
  );
}
