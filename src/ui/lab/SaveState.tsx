/**
 * The top bar's save indicator (TopBar.tsx): "saving…" / "saved" while this tab saves and the lab is paused
 * (its room kept, hidden, while playing); "not saved" (its tooltip: why) while saves fail or there is no storage; "not saving" (its tooltip: another tab saves) with a Save here button, always shown,
 * while another tab saves this browser's experiment (./saving_tabs.ts). SaveHereButton is also the notice's, and
 * so is DiscardSavedButton (saved runs this version cannot read).
 */
import "./save_state.css";
import { useLab } from "../lab_store";
import { useDiscardSaved } from "./discard_saved";
import { ELSEWHERE_TITLE, OWNER_GONE_LINE, RELOAD_LINE, useSavingTabs } from "./saving_tabs";
import { tabWords } from "./tab_words";

/**
 * "Save here": make this tab the one that saves (./saving.ts Saving.saveHere); nothing while this tab saves.
 * `inNotice`: the notice's, shown only while the notice says another tab saves.
 */
export function SaveHereButton({ inNotice = false }: { inNotice?: boolean }) {
  const state = useSavingTabs((s) => s.state);
  const saveHere = useSavingTabs((s) => s.saveHere);
  const said = useLab(
    (s) => (s.notice?.includes(RELOAD_LINE) || s.notice?.includes(OWNER_GONE_LINE)) ?? false,
  );
  if (state === "saves" || !saveHere || (inNotice && !said)) return null;
  return (
    <button
      type="button"
      className="save-here"
      data-testid={inNotice ? "notice-save-here" : "save-here"}
      disabled={state === "taking"}
      title={tabWords(
        "Make this tab the one that saves, without a reload: the other tab stops saving, what it saved is kept under Change… → Recent experiments, and this tab's runs are saved where they are now.",
      )}
      onClick={saveHere}
    >
      Save here
    </button>
  );
}

/**
 * "Discard them": while the runs saved in this browser cannot be read and this page therefore does not save
 * (./discard_saved.ts); in the notice and beside "not saved".
 */
export function DiscardSavedButton({ inNotice = false }: { inNotice?: boolean }) {
  const discard = useDiscardSaved((s) => s.discard);
  if (!discard) return null;
  return (
    <button
      type="button"
      className="save-here"
      data-testid={inNotice ? "notice-discard-saved" : "discard-saved"}
      title="The runs saved in this browser cannot be read by this version of the lab, so this page does not save over them. Discard them (you are asked first) and this page saves its runs from then on."
      onClick={() => void discard()}
    >
      Discard them
    </button>
  );
}

/** The save indicator; `steps`: the furthest run's step; `finishing`: a run's step is still on the device. */
export function SaveState({
  playing,
  steps,
  finishing,
}: {
  playing: boolean;
  steps: number;
  finishing: boolean;
}) {
  const saving = useLab((s) => s.saving);
  const failed = useLab((s) => s.saveFailed);
  const tabs = useSavingTabs((s) => s.state);
  const ownerGone = useSavingTabs((s) => s.ownerGone);
  // Saves fail (storage full, none at all): said while it lasts, playing or not, never "saved".
  if (failed && tabs === "saves" && steps > 0)
    return (
      <span className="save-elsewhere">
        <span className="save-state save-failed" data-testid="save-state" data-saving="failed" title={failed}>
          not saved
        </span>
        <DiscardSavedButton />
      </span>
    );
  if (tabs !== "saves")
    return (
      <span className="save-elsewhere">
        <span
          className="save-state"
          data-testid="save-state"
          data-saving="elsewhere"
          title={tabWords(ownerGone ? OWNER_GONE_LINE : ELSEWHERE_TITLE)}
        >
          {tabs === "taking" ? "taking over…" : "not saving"}
        </span>
        <SaveHereButton />
      </span>
    );
  if (saving === null || steps === 0) return null;
  return (
    <span
      className="save-state"
      data-testid="save-state"
      data-saving={saving}
      data-hidden={playing}
      aria-hidden={playing}
      title={
        saving && finishing
          ? "Saving waits for the step still on the device (on a software GPU that can take minutes): a reload before “saved” resumes each run from its last checkpoint."
          : "Runs, curves and checkpoints are kept in this browser: a reload resumes every run from its last checkpoint. Wait for “saved” before closing the page."
      }
    >
      {saving ? "saving…" : "saved"}
    </span>
  );
}
