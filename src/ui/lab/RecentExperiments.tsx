/**
 * The "Recent experiments" part of the Change… dialog: the experiments this browser kept when another one
 * replaced them (src/lab/archive.ts), newest first, each with Open (the page swaps it in and reloads into
 * it, its runs resuming from their checkpoints) and Forget (asks once more).
 */
import { useEffect, useId, useState } from "react";
import { ARCHIVE_MAX, type ArchiveEntry } from "../../lab/archive";
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { experimentTitle, keptRunsText, timeAgo } from "./experiment_names";
import { forgetRecent, onRecentChange, openRecent, recentExperiments } from "./saving";
import { useSavingTabs } from "./saving_tabs";
import { tabWords } from "./tab_words";

export function RecentExperiments() {
  const id = useId();
  const [entries, setEntries] = useState<ArchiveEntry[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  // Another tab saves: the list reads the same, but opening or forgetting one is that tab's to do.
  const elsewhere = useSavingTabs((s) => s.state !== "saves");
  useEffect(() => {
    let live = true;
    const read = () =>
      recentExperiments().then(
        (list) => live && setEntries(list),
        (e) => live && setProblem(`Could not read the kept experiments (${message(e)}).`),
      );
    read();
    // Opened while the page was still keeping the experiment a link replaced: read again once it has.
    const stop = onRecentChange(read);
    return () => {
      live = false;
      stop();
    };
  }, []);

  const open = (entry: ArchiveEntry) => {
    setBusy(entry.id);
    setProblem(null);
    openRecent(entry.id).catch((e) => {
      setBusy(null);
      setProblem(`Could not open it: ${message(e)}.`);
      // Also on the page, in case this dialog was closed while it waited.
      useLab.getState().setNotice(`Could not open the kept experiment: ${message(e)}.`);
    });
  };
  const forget = (entry: ArchiveEntry) => {
    if (asking !== entry.id) return setAsking(entry.id);
    setAsking(null);
    forgetRecent(entry.id).then(
      () => setEntries((l) => l?.filter((x) => x.id !== entry.id) ?? null),
      (e) => setProblem(`Could not forget it: ${message(e)}.`),
    );
  };

  return (
    <section className="recent" aria-labelledby={`${id}-title`} data-testid="recent-experiments">
      <h3 id={`${id}-title`} className="eyebrow">
        Recent experiments
      </h3>
      <p className="muted">
        When another experiment replaces one that trained, this browser keeps it here, up to {ARCHIVE_MAX}:
        beyond that, the one holding the least training is forgotten (Pipeline models count first, then the
        runs' steps). Opening one keeps the current experiment in its place.
      </p>
      {entries === null && !problem && <p className="muted">Reading…</p>}
      {elsewhere && entries && entries.length > 0 && (
        <p className="muted" data-testid="recent-elsewhere">
          {tabWords(
            "Another tab saves this browser's experiments: open or forget one there, or press Save here first.",
          )}
        </p>
      )}
      {entries?.length === 0 && (
        <p className="muted" data-testid="recent-none">
          None yet.
        </p>
      )}
      {entries && entries.length > 0 && (
        <ul className="recent-list">
          {entries.map((e) => (
            <li key={e.id} className="recent-entry" data-testid="recent-entry">
              <div className="recent-text">
                <span className="recent-title">{experimentTitle(e.spec, e.startModel)}</span>
                <span className="muted" data-testid="recent-runs">
                  {keptRunsText(e)}
                </span>
                <span className="muted">kept {timeAgo(e.savedAt)}</span>
              </div>
              <div className="recent-actions">
                <button
                  type="button"
                  className="primary"
                  data-testid="recent-open"
                  disabled={busy !== null || elsewhere}
                  onClick={() => open(e)}
                >
                  {busy === e.id ? "Opening…" : "Open"}
                </button>
                <button
                  type="button"
                  data-testid="recent-forget"
                  disabled={busy !== null || elsewhere}
                  onClick={() => forget(e)}
                  onBlur={() => setAsking(null)}
                >
                  {asking === e.id ? "Forget for good?" : "Forget"}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="run-error" role="alert" data-testid="recent-problem">
          {problem}
        </p>
      )}
    </section>
  );
}
