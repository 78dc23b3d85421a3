/** A run card's Export menu: metrics (CSV, JSON), config, checkpoint, TRL script (./export_run.ts). */
import { memo, useRef } from "react";
import { labActions } from "./actions";
import { EXPORTS, exportRun } from "./export_run";
import { DownloadIcon } from "./icons";

export const ExportMenu = memo(function ExportMenu(props: {
  runId: string;
  label: string;
  disabled: boolean;
}) {
  const { runId, label, disabled } = props;
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <details className="menu" ref={menu}>
      <summary
        className={`icon-button menu-summary${disabled ? " is-disabled" : ""}`}
        title="Export this run"
        aria-label={`Export ${label}`}
        data-testid={`export-${runId}`}
      >
        <DownloadIcon />
      </summary>
      <ul className="menu-list">
        {EXPORTS.map((x) => (
          <li key={x.kind}>
            <button
              type="button"
              title={x.hint}
              data-testid={`export-${runId}-${x.kind}`}
              disabled={disabled && (x.kind === "checkpoint" || x.kind === "onnx")}
              onClick={() => {
                if (menu.current) menu.current.open = false;
                exportRun(runId, x.kind, labActions);
              }}
            >
              {x.label}
              <span className="muted">{x.hint}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
});
