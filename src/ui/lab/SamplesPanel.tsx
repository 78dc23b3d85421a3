/**
 * The latest completions of each run: prompt greyed, completion as token spans, reward and gold. Hovering a
 * token shows its log-prob, probability, advantage, ratio, per-token KL and entropy; a colour mode paints
 * the tokens by one of these on a diverging scale with a legend.
 */
import { memo, useMemo, useState } from "react";
import type { SampleView, TokenView } from "../../lab/protocol";
import { type ColourMode, useLab } from "../lab_store";
import { useVisibleRuns } from "./ChartsPanel";
import { sig } from "./numbers";
import { Popover } from "./Popover";
import { COLOUR_MODES, colourAt, type DivergingScale, scaleFor, tokenValue } from "./token_colours";

/** Samples shown per run before "show all". */
const FIRST = 4;

interface Hovered {
  token: TokenView;
  rect: DOMRect;
}

export function SamplesPanel() {
  const visible = useVisibleRuns();
  const mode = useLab((s) => s.view.colourMode);
  const setView = useLab((s) => s.setView);
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const withSamples = visible.filter((v) => v.run.samples.length > 0);
  const scale = useMemo(() => {
    if (mode === "none") return null;
    const values: number[] = [];
    for (const v of withSamples)
      for (const s of v.run.samples)
        for (const t of s.completion) {
          const x = tokenValue(t, mode);
          if (x !== null) values.push(x);
        }
    return scaleFor(mode, values);
  }, [withSamples, mode]);
  return (
    <section className="samples" aria-labelledby="samples-title" data-testid="samples">
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
        {scale && <ScaleLegend mode={mode} scale={scale} />}
      </div>
      {withSamples.length === 0 ? (
        <p className="muted">The latest completions of each run appear here after its first step.</p>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: hover cards are a pointer aid; the same values are in the colour modes
        // biome-ignore lint/a11y/useKeyWithMouseEvents: tokens are not tab stops (hundreds of them)
        <div
          className="sample-runs"
          onMouseLeave={() => setHovered(null)}
          onMouseOver={(e) => {
            const el = (e.target as HTMLElement).closest<HTMLElement>("[data-tok]");
            if (!el) return setHovered(null);
            const [runIdx, sampleIdx, tokIdx] = (el.dataset.tok ?? "").split(".").map(Number);
            const token = withSamples[runIdx]?.run.samples[sampleIdx]?.completion[tokIdx];
            if (token) setHovered({ token, rect: el.getBoundingClientRect() });
          }}
        >
          {withSamples.map(({ run, colour }, ri) => (
            <RunSamples
              key={run.spec.id}
              runIndex={ri}
              runId={run.spec.id}
              label={run.spec.label}
              step={run.history.at(-1)?.step ?? run.step}
              colour={colour}
              samples={run.samples}
              mode={mode}
              scale={scale}
            />
          ))}
        </div>
      )}
      <Popover anchor={hovered?.rect ?? null}>{hovered && <TokenCard token={hovered.token} />}</Popover>
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
  samples: SampleView[];
  mode: ColourMode;
  scale: DivergingScale | null;
}) {
  const [all, setAll] = useState(false);
  const list = all ? props.samples : props.samples.slice(0, FIRST);
  return (
    <div className="sample-run" data-testid={`samples-${props.runId}`} style={{ borderColor: props.colour }}>
      <h3>
        <span className="legend-swatch" style={{ background: props.colour }} />
        {props.label} <span className="muted">· step {props.step}</span>
      </h3>
      <ol className="sample-list">
        {list.map((s, si) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: samples are replaced wholesale each step
          <li key={si} className="sample">
            <p className="sample-text">
              <span className="prompt">{s.prompt}</span>
              {s.completion.map((t, ti) => (
                <Token
                  // biome-ignore lint/suspicious/noArrayIndexKey: token positions are the identity
                  key={ti}
                  id={`${props.runIndex}.${si}.${ti}`}
                  token={t}
                  mode={props.mode}
                  scale={props.scale}
                />
              ))}
            </p>
            <p className="sample-scores">
              <span title="The run's reward source">reward {sig(s.reward, 3)}</span>
              <span title="The task's gold scorer">gold {sig(s.gold, 3)}</span>
            </p>
          </li>
        ))}
      </ol>
      {props.samples.length > FIRST && (
        <button type="button" className="link-button" onClick={() => setAll(!all)}>
          {all ? "Show fewer" : `Show all ${props.samples.length}`}
        </button>
      )}
    </div>
  );
});

/** A special token (e.g. "<eos>") shows as a small badge; others as their text. */
function isSpecial(text: string): boolean {
  return text.length > 2 && text.startsWith("<") && text.endsWith(">");
}

function Token({
  id,
  token,
  mode,
  scale,
}: {
  id: string;
  token: TokenView;
  mode: ColourMode;
  scale: DivergingScale | null;
}) {
  const v = scale ? tokenValue(token, mode) : null;
  const background = v === null || !scale ? undefined : colourAt(scale.position(v));
  return (
    <span data-tok={id} className={isSpecial(token.text) ? "tok tok-special" : "tok"} style={{ background }}>
      {token.text}
    </span>
  );
}

function TokenCard({ token }: { token: TokenView }) {
  const rows: [string, string][] = [
    ["log-prob", `${sig(token.logp, 3)} nats`],
    ["probability", sig(token.prob, 3)],
    ["advantage", token.advantage === null ? "—" : sig(token.advantage, 3)],
    ["ratio π/π_old", token.ratio === null ? "—" : sig(token.ratio, 4)],
    ["KL (log π/π_ref)", `${sig(token.kl, 3)} nats`],
    ["entropy", `${sig(token.entropy, 3)} nats`],
  ];
  return (
    <div className="token-card" data-testid="token-card">
      <p className="token-card-text">
        <code>{JSON.stringify(token.text)}</code>
      </p>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ScaleLegend({ mode, scale }: { mode: ColourMode; scale: DivergingScale }) {
  const info = COLOUR_MODES.find((m) => m.mode === mode);
  return (
    <div className="scale-legend" data-testid="colour-legend">
      <span>
        {sig(scale.lo, 2)} <span className="muted">{info?.low}</span>
      </span>
      <span
        className="scale-bar"
        style={{ background: `linear-gradient(90deg, ${colourAt(-1)}, transparent, ${colourAt(1)})` }}
      />
      <span>
        <span className="muted">{info?.high}</span> {sig(scale.hi, 2)}
      </span>
    </div>
  );
}
