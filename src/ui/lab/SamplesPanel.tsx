/**
 * The latest completions of each run: prompt greyed, completion as token spans, reward and gold. Hovering a
 * token shows its log-prob, probability, advantage, ratio, per-token KL and entropy; a colour mode paints
 * the tokens by one of these on a diverging scale with a legend. Keyboard: each sample is one tab stop; ←/→
 * (Home/End) move a highlighted token through it and show the same card (a roving cursor, not a tab stop per
 * token); Escape hides the card.
 */
import { type KeyboardEvent, memo, useEffect, useLayoutEffect, useRef, useState } from "react";
import { SAMPLE_LIMIT, type SampleView, type TokenView } from "../../lab/protocol";
import { type ColourMode, useLab } from "../lab_store";
import { cursorMove } from "./cursor_move";
import { sig } from "./numbers";
import { Popover } from "./Popover";
import { RunSwatch } from "./RunSwatch";
import type { RunShape } from "./run_shape";
import { ScaleLegend, Token } from "./SampleTokens";
import { TokenCard } from "./TokenCard";
import { COLOUR_MODES, type DivergingScale, scaleFor, tokenValue } from "./token_colours";
import { useVisibleRuns } from "./visible_runs";

/** Samples shown per run before "show all". */
const FIRST = 4;

/** The token whose card is shown: its `data-tok` id ("run.sample.token") and where it is on screen. */
interface Hovered {
  id: string;
  rect: DOMRect;
}

/** Where token `id` is now, or null when it is gone or outside the window. */
function anchorOf(id: string): Hovered | null {
  const el = document.querySelector<HTMLElement>(`[data-tok="${id}"]`);
  if (!el) return null;
  const rect = el.getBoundingClientRect();
  return rect.bottom < 0 || rect.top > window.innerHeight ? null : { id, rect };
}

/** The colour scale of `mode` over the tokens of `lists` (null: no colour; "none": no token has the value). */
function scaleOf(lists: readonly (readonly SampleView[])[], mode: ColourMode) {
  if (mode === "none") return null;
  const values: number[] = [];
  for (const samples of lists)
    for (const s of samples)
      for (const t of s.completion) {
        const x = tokenValue(t, mode);
        if (x !== null) values.push(x);
      }
  // No run shown has this value per token (DPO and the other pair learners: no advantage, no ratio).
  return values.length ? scaleFor(mode, values) : "none";
}

export function SamplesPanel() {
  const visible = useVisibleRuns();
  const mode = useLab((s) => s.view.colourMode);
  const setView = useLab((s) => s.setView);
  const [hovered, setHovered] = useState<Hovered | null>(null);
  /** The keyboard cursor: the `data-tok` id of the highlighted token, or null. */
  const [cursor, setCursor] = useState<string | null>(null);
  const withSamples = visible.filter((v) => v.run.samples.length > 0);
  const anyRuns = useLab((s) => s.spec.runs.length > 0);
  const lists = withSamples.map((v) => v.run.samples);
  // The colour scale, the same object while no run's samples changed (an update of another run's metrics, or
  // a step of a run without samples, keeps it: every sample list's tokens would re-render otherwise).
  const scaled = useRef<{
    lists: readonly unknown[];
    mode: string;
    scale: ReturnType<typeof scaleOf>;
  } | null>(null);
  const kept = scaled.current;
  const scale =
    kept &&
    kept.mode === mode &&
    kept.lists.length === lists.length &&
    kept.lists.every((l, i) => l === lists[i])
      ? kept.scale
      : scaleOf(lists, mode);
  scaled.current = { lists, mode, scale };
  const tokenAt = (id: string | undefined): TokenView | undefined => {
    const [runIdx, sampleIdx, tokIdx] = (id ?? "").split(".").map(Number);
    return withSamples[runIdx]?.run.samples[sampleIdx]?.completion[tokIdx];
  };
  const show = (el: HTMLElement) => {
    const id = el.dataset.tok;
    if (!id || !tokenAt(id)) return;
    setCursor(id);
    setHovered({ id, rect: el.getBoundingClientRect() });
  };
  // The card always shows the current token at that place: new samples (a step) re-read it and re-anchor the
  // card on the token now there (hidden when there is none); on scroll the card follows its token (hidden once
  // the token leaves the window).
  const shownLists = useRef(lists);
  useLayoutEffect(() => {
    const changed =
      lists.length !== shownLists.current.length || lists.some((l, i) => l !== shownLists.current[i]);
    shownLists.current = lists;
    if (changed && hovered) setHovered(anchorOf(hovered.id));
  });
  const hoveredId = hovered?.id;
  useEffect(() => {
    if (!hoveredId) return;
    let frame = 0;
    const follow = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setHovered(anchorOf(hoveredId)));
    };
    window.addEventListener("scroll", follow, { passive: true, capture: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", follow, { capture: true });
    };
  }, [hoveredId]);
  const hoveredToken = hovered ? tokenAt(hovered.id) : undefined;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const sample = (e.target as HTMLElement).closest<HTMLElement>("[data-sample]");
    if (!sample) return;
    if (e.key === "Escape") {
      setCursor(null);
      setHovered(null);
      return;
    }
    const tokens = [...sample.querySelectorAll<HTMLElement>("[data-tok]")];
    const next = cursorMove(
      e.key,
      tokens.findIndex((t) => t.dataset.tok === cursor),
      tokens.length,
    );
    if (next === null) return;
    e.preventDefault();
    show(tokens[next]);
  };
  return (
    <section
      className="samples"
      aria-labelledby="samples-title"
      data-testid="samples"
      id="lab-samples"
      tabIndex={-1}
    >
      <div className="section-head">
        <h2 id="samples-title" className="section-title">
          Samples
        </h2>
        <label className="inline-select">
          <span className="eyebrow">Colour tokens by</span>
          <select
            data-testid="colour-mode"
            value={mode}
            onChange={(e) => setView({ colourMode: e.target.value as ColourMode })}
          >
            {COLOUR_MODES.map((m) => (
              <option key={m.mode} value={m.mode}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        {scale === "none"
          ? withSamples.length > 0 && (
              <div className="scale-legend" data-testid="colour-legend">
                <span className="muted">
                  no run shown has a per-token {COLOUR_MODES.find((m) => m.mode === mode)?.name.toLowerCase()}{" "}
                  (DPO, KTO, ORPO and best-of-n record none)
                </span>
              </div>
            )
          : scale && <ScaleLegend mode={mode} scale={scale} />}
      </div>
      {withSamples.length > 0 && (
        <p className="muted samples-hint">
          Each run's latest step, its first {SAMPLE_LIMIT} completions at most (Inspect, while paused, has the
          whole batch
          {withSamples.some((v) => v.run.spec.algo === "bon") &&
            "; best-of-n shows the pick of each prompt's n"}
          ). Hover a token for its numbers — or Tab to a sample and move through its tokens with ← →.
        </p>
      )}
      {withSamples.length === 0 ? (
        <p className="muted" data-testid="samples-empty">
          {visible.length === 0 && anyRuns
            ? "Every run is hidden: show one with its chip in the charts' legend to see its completions."
            : visible.some((v) => v.run.step > 0)
              ? "Samples are not kept across a reload, nor in a run file (Import): each run's latest completions appear here after its next step."
              : "The latest completions of each run appear here after its first step."}
        </p>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: pointer hover is delegated here; the keyboard path is each sample's own tab stop (onKeyDown below)
        <div
          className="sample-runs"
          onMouseLeave={() => setHovered(null)}
          onMouseOver={(e) => {
            const el = (e.target as HTMLElement).closest<HTMLElement>("[data-tok]");
            const id = el?.dataset.tok;
            if (!el || !id || !tokenAt(id)) return setHovered(null);
            setHovered({ id, rect: el.getBoundingClientRect() });
          }}
          onFocus={(e) => {
            const target = e.target as HTMLElement;
            const el = target.dataset.tok
              ? target
              : target.closest("[data-sample]")?.querySelector<HTMLElement>("[data-tok]");
            if (el) show(el);
          }}
          onBlur={() => {
            setCursor(null);
            setHovered(null);
          }}
          onKeyDown={onKeyDown}
        >
          {withSamples.map(({ run, colour, dotted, shape }, ri) => (
            <RunSamples
              key={run.spec.id}
              runIndex={ri}
              runId={run.spec.id}
              label={run.spec.label}
              step={run.history.at(-1)?.step ?? run.step}
              colour={colour}
              dotted={dotted === true}
              shape={shape ?? "circle"}
              samples={run.samples}
              mode={mode}
              scale={scale === "none" ? null : scale}
              cursor={cursor?.startsWith(`${ri}.`) ? cursor : null}
            />
          ))}
        </div>
      )}
      <Popover anchor={hoveredToken && hovered ? hovered.rect : null}>
        {hoveredToken && <TokenCard token={hoveredToken} />}
      </Popover>
    </section>
  );
}

/** Memoised: re-renders when the run's samples (or the colouring) change, not on every update. */
const RunSamples = memo(function RunSamples(props: {
  runIndex: number;
  runId: string;
  label: string;
  step: number;
  colour: string;
  dotted: boolean;
  shape: RunShape;
  samples: SampleView[];
  mode: ColourMode;
  scale: DivergingScale | null;
  /** The highlighted token's id when the keyboard cursor is in this run. */
  cursor: string | null;
}) {
  const [all, setAll] = useState(false);
  const list = all ? props.samples : props.samples.slice(0, FIRST);
  // Other runs are painted but this one records no such value per token (DPO has no per-token advantage): say
  // so, rather than leave it plain without a reason.
  const uncoloured =
    props.scale !== null &&
    !props.samples.some((s) => s.completion.some((t) => tokenValue(t, props.mode) !== null));
  return (
    <div
      className={`sample-run${props.dotted ? " sample-run-dotted" : ""}`}
      data-testid={`samples-${props.runId}`}
      style={{ borderColor: props.colour }}
    >
      <h3>
        <RunSwatch look={{ colour: props.colour, dotted: props.dotted, shape: props.shape }} />
        {props.label} <span className="muted">· step {props.step}</span>
        {uncoloured && (
          <span className="muted sample-uncoloured" data-testid={`uncoloured-${props.runId}`}>
            no per-token {COLOUR_MODES.find((m) => m.mode === props.mode)?.name.toLowerCase()} here
          </span>
        )}
      </h3>
      <ol className="sample-list">
        {list.map((s, si) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: samples are replaced wholesale each step
          <li key={si} className="sample">
            {/* One tab stop per sample, a listbox of its tokens: ←/→ move the cursor (SamplesPanel's onKeyDown). */}
            <div
              className="sample-text"
              role="listbox"
              tabIndex={0}
              data-sample={`${props.runIndex}.${si}`}
              aria-label={`${props.label}, sample ${si + 1}, prompt “${s.prompt}”: arrow keys inspect its tokens`}
              aria-activedescendant={
                props.cursor?.startsWith(`${props.runIndex}.${si}.`) ? `tok-${props.cursor}` : undefined
              }
            >
              <span className="prompt" aria-hidden="true">
                {s.prompt}
              </span>
              {s.completion.map((t, ti) => {
                const id = `${props.runIndex}.${si}.${ti}`;
                return (
                  <Token
                    // biome-ignore lint/suspicious/noArrayIndexKey: token positions are the identity
                    key={ti}
                    id={id}
                    token={t}
                    mode={props.mode}
                    scale={props.scale}
                    active={props.cursor === id}
                  />
                );
              })}
            </div>
            <p className="sample-scores">
              <span title="The run's reward source">reward {sig(s.reward, 3)}</span>
              <span title="The task's gold scorer">gold {sig(s.gold, 3)}</span>
            </p>
          </li>
        ))}
      </ol>
      {props.samples.length > FIRST && (
        <button type="button" className="link-button" onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show ${props.samples.length}`}
        </button>
      )}
    </div>
  );
});
