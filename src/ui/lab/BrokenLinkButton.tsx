/**
 * The notice's "Copy the link as opened" button: a link the lab could not use whole opens the default
 * experiment (or its good part) and the address bar then shows the experiment that opened, so the link
 * itself would be lost for a bug report or a second look. Copies it; where the clipboard refuses, shows it
 * selected for Ctrl+C.
 */
import { useState } from "react";
import { useLab } from "../lab_store";
import { copyText } from "./url_sync";

export function BrokenLinkButton() {
  const link = useLab((s) => s.brokenLink);
  const [state, setState] = useState<"idle" | "copied" | "shown">("idle");
  if (!link) return null;
  if (state === "shown")
    return (
      <input
        className="broken-link"
        data-testid="broken-link-text"
        aria-label="The link as opened"
        readOnly
        value={link}
        ref={(el) => el?.select()}
      />
    );
  return (
    <button
      type="button"
      className="save-here"
      data-testid="broken-link-copy"
      title="The address bar now shows the experiment that opened; this copies the link as it was, e.g. for a bug report"
      onClick={async () => setState((await copyText(link)) ? "copied" : "shown")}
    >
      {state === "copied" ? "Copied" : "Copy the link as opened"}
    </button>
  );
}
