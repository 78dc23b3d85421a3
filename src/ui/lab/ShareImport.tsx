/**
 * The top bar's Share and Import buttons. Share copies the link that rebuilds this experiment (src/ui/lab/
 * url_sync.ts); when the clipboard refuses, the link is shown to copy by hand. Import reads a run file
 * (.json, with its .safetensors to keep training it) exported earlier (./import_run.ts).
 */
import { useEffect, useRef, useState } from "react";
import { useLab } from "../lab_store";
import { labActions } from "./actions";
import { FilePicker } from "./FilePicker";
import { LinkIcon, UploadIcon } from "./icons";
import { importRunFiles } from "./import_run";
import { shareNoteOf } from "./share_note";
import { share } from "./url_sync";

export function ShareButton({ disabled }: { disabled: boolean }) {
  const [state, setState] = useState<{ copied: boolean; url: string } | null>(null);
  // Said when the link is copied: names the mid-run changes a link cannot replay.
  const note = useLab((s) => (state ? shareNoteOf(s) : ""));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onClick = async () => {
    const r = await share();
    setState(r);
    if (timer.current) clearTimeout(timer.current);
    if (r.copied) timer.current = setTimeout(() => setState(null), 6000);
  };
  // The "Link copied" note is a passing message: a click elsewhere (an export menu, a knob) or Escape closes it
  // rather than leaving it over what the user went to next.
  const copied = state?.copied === true;
  useEffect(() => {
    if (!copied) return;
    const close = () => setState(null);
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault(); // used: a pinned chart stays pinned (chart_pin.ts)
      close();
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", onKey);
    };
  }, [copied]);
  return (
    <div className="share">
      <button
        type="button"
        data-testid="share"
        title="Copy a link that rebuilds this experiment's settings: task, model, seed, runs and their knobs (not the trained weights or curves)"
        disabled={disabled}
        onClick={onClick}
      >
        <LinkIcon />{" "}
        {/* Both labels take the same cell, the other one hidden: the button keeps its width (the bar does not shift). */}
        <span className="share-label">
          <span className={state?.copied ? "share-off" : undefined}>Share</span>
          <span className={state?.copied ? undefined : "share-off"}>Copied</span>
        </span>
      </button>
      {/* Always there, so a screen reader announces the text when it appears (the card shows it to the eye). */}
      <span className="visually-hidden" role="status">
        {state?.copied ? `Link copied. ${note}` : ""}
      </span>
      {state?.copied && (
        <p className="share-fallback share-note" aria-hidden="true" data-testid="share-note">
          Link copied. {note}
        </p>
      )}
      {state && !state.copied && (
        <div className="share-fallback" role="dialog" aria-label="Share link">
          <p>Copy this link. {note}</p>
          <input
            type="text"
            readOnly
            value={state.url}
            data-testid="share-url"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" onClick={() => setState(null)}>
            Close
          </button>
        </div>
      )}
    </div>
  );
}

export function ImportButton({ disabled }: { disabled: boolean }) {
  return (
    <FilePicker
      testId="import"
      title="Add a run exported earlier: its .json (curves, settings), with its .safetensors to keep training it"
      disabled={disabled}
      accept=".json,.safetensors"
      multiple
      onFiles={(files) =>
        importRunFiles(files, {
          addRun: labActions.addRunSpec,
          loadRunCheckpoint: labActions.loadRunCheckpoint,
          removeRun: labActions.removeRun,
        })
      }
    >
      <UploadIcon /> Import
    </FilePicker>
  );
}
