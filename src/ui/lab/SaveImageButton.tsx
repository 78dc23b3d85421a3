/**
 * A chart's "Save image" action: a button in the chart's header that opens two choices, PNG and SVG, each
 * downloading the chart with its title, the legend of the runs it draws and the settings it was drawn with
 * (`save`: ./chart_image/save_chart.ts for the lab's charts, ./chart_image/pipeline_image.ts for the
 * Pipeline's), given the chart's <figure>. Escape closes the choices and returns focus to the button; a choice
 * closes them too. Not printed (print.css): on paper it would be a button that does nothing.
 */
import { type KeyboardEvent, useRef, useState } from "react";
import type { ImageKind } from "./chart_image/save_chart";
import { DownloadIcon } from "./icons";

const KINDS: readonly { kind: ImageKind; name: string; hint: string }[] = [
  { kind: "png", name: "PNG", hint: "a picture at twice the screen's pixels, for slides" },
  { kind: "svg", name: "SVG", hint: "a vector drawing, for reports and editing" },
];

export function SaveImageButton({
  info,
  save,
}: {
  /** The chart's id (test ids "save-image-<id>", "…-png", "…-svg") and title (the button's name). */
  info: { id: string; title: string };
  /** Saves the chart drawn in `figure` (the button's closest <figure>) as `kind`. */
  save(figure: Element, kind: ImageKind): void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || !open) return;
    e.stopPropagation();
    setOpen(false);
    button.current?.focus();
  };
  const choose = (kind: ImageKind) => {
    setOpen(false);
    button.current?.focus();
    const figure = button.current?.closest("figure");
    if (figure) save(figure, kind);
  };
  const choices = `save-image-choices-${info.id}`;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from either choice closes them (the buttons inside take the keys)
    <span className="save-image" onKeyDown={close}>
      <button
        ref={button}
        type="button"
        className="icon-button save-image-button"
        aria-label={`Save ${info.title} chart as image`}
        aria-expanded={open}
        aria-controls={open ? choices : undefined}
        title="Save this chart as an image (PNG or SVG) with its runs' legend and the settings it was drawn with"
        data-testid={`save-image-${info.id}`}
        onClick={() => setOpen((o) => !o)}
      >
        <DownloadIcon />
        <span className="save-image-text">Image</span>
      </button>
      {open && (
        // biome-ignore lint/a11y/useSemanticElements: two buttons in a row, where a fieldset's legend does not lay out
        <span
          id={choices}
          className="save-image-choices"
          role="group"
          aria-label={`Save ${info.title} chart as`}
        >
          {KINDS.map((k) => (
            <button
              key={k.kind}
              type="button"
              className="icon-button"
              title={k.hint}
              data-testid={`save-image-${info.id}-${k.kind}`}
              onClick={() => choose(k.kind)}
            >
              {k.name}
            </button>
          ))}
        </span>
      )}
    </span>
  );
}
