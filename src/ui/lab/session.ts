/**
 * Opening the lab with its memory: the experiment comes from the link (src/lab/url.ts), else from the
 * session saved in IndexedDB (src/lab/persist.ts), else the defaults; after the worker has started, the
 * saved runs of that experiment come back (curves, markers, and weights via loadRunCheckpoint); then the
 * autosaver (src/lab/autosave.ts) and the URL sync (./url_sync.ts) keep both up to date. The Pipeline view's
 * models come back with their session (./pipeline_saver.ts keeps them).
 * Every problem on the way (bad link, storage unavailable, a checkpoint that does not load) becomes a line
 * of the lab's notice; nothing here throws.
 */
import { hasProgress } from "../../lab/archive";
import type { Autosaver } from "../../lab/autosave";
import { defaultExperiment } from "../../lab/defaults";
import type { LabPersistence, SavedPipeline, SavedSession } from "../../lab/persist";
import type { ExperimentSpec, PipelineModels, RunCounters } from "../../lab/protocol";
import { pageStorage, type ReachedStorage, takeReached } from "../../lab/reached";
import { planRestore, relabelStartingOver, sameExperiment, sameRun } from "../../lab/restore";
import { specFromLocation } from "../../lab/url";
import { errorMessage as message } from "../../util/errors";
import { useLab } from "../lab_store";
import { offerDiscard } from "./discard_saved";
import { noStorageLine } from "./embed_storage";
import { experimentTitle } from "./experiment_names";
import { discardedLine, noticeWhenThawed } from "./frozen";
import { type MarkerStorage, tabStorage } from "./pipeline_guard";
import { DEFAULT_PIPELINE_SETTINGS, usePipelineStore } from "./pipeline_store";
import { savedPipelineView } from "./pipeline_view";
import { takeSafeStart } from "./safe_start";
import { openSaving, type SavingDeps, setOpenSaving, startSaving } from "./saving";
import { askBeforeLosingTraining } from "./saving_elsewhere";
import { newWriterId } from "./saving_tabs";
import { dropsTraining, keepReplaced, setAsideLine } from "./session_keep";
import { matchesLink, mixedStartLine, savedExperiment, startingOverLines } from "./session_lines";
import { openStorage, readIfWritten, unreadableLine } from "./session_storage";
import { reloadOnPastedLink, startUrlSync } from "./url_sync";

/** What opening needs from the worker side (labActions / labClient provide it). */
export interface SessionDeps extends SavingDeps {
  /** Start the worker on an experiment (with the saved Pipeline's models); then the phase is "ready" or "error". */
  start(spec: ExperimentSpec, pipeline?: PipelineModels): Promise<void>;
  /** Resolves with what the page should be told of the resumed run (a string), or anything else for nothing. */
  loadRunCheckpoint?(runId: string, bytes: Uint8Array, at: RunCounters): Promise<unknown>;
  /** Tests: another database. Default: the lab's IndexedDB. */
  openPersistence?: () => Promise<LabPersistence>;
  /** Tests: where the autosaver left the steps reached (src/lab/reached.ts). Default: this tab's sessionStorage. */
  reachedStore?: ReachedStorage;
  /** Where the crash card's request to start without the saved runs is kept (default: this tab's sessionStorage). */
  tabStore?: MarkerStorage;
}

export interface LabSession {
  /** null when IndexedDB is unavailable (the notice said so). */
  autosaver: Autosaver | null;
  /** Stop saving and syncing the URL; resolves once the savers' writes in flight have landed. */
  stop(): Promise<void>;
}

/** Add a line to the lab's notice (keeping what is there). */
function addNotice(line: string | null): void {
  if (!line) return;
  const now = useLab.getState().notice;
  if (now?.includes(line)) return;
  useLab.getState().setNotice(now ? `${now} ${line}` : line);
}

/** Open the experiment, start it, bring back saved runs, and keep saving. */
export async function openLab(deps: SessionDeps): Promise<LabSession> {
  useLab.getState().setRestoring(true);
  try {
    return await openRestoring(deps);
  } finally {
    useLab.getState().setRestoring(false);
  }
}

/** {@link openLab}, while the store says `restoring` (no Play or Step until saved runs are back). */
async function openRestoring(deps: SessionDeps): Promise<LabSession> {
  const lab = () => useLab.getState();
  const stopWatching = reloadOnPastedLink();
  const opened = specFromLocation(globalThis.location, defaultExperiment);
  // Read before the address is rewritten to the experiment that opens.
  lab().setBrokenLink(opened.notice ? (globalThis.location?.href ?? null) : null);
  // A link names its experiment at once (the top bar would show the defaults while storage is read).
  if (opened.source === "url") {
    lab().setView(opened.view);
    lab().setSpec(opened.spec);
  }
  let persistence: LabPersistence | null = null;
  let saved: SavedSession | null = null;
  let savedPipeline: SavedPipeline | null = null;
  let storageProblem: string | null = null;
  /** What was saved could not be read: this page must not save over it (null: read, or nothing saved). */
  let unread: string | null = null;
  let unreadLine = "";
  try {
    persistence = await openStorage(deps.openPersistence);
  } catch (e) {
    storageProblem = noStorageLine(e); // embedded in another site's page: says so (./embed_storage.ts)
    lab().setSaveFailed(storageProblem);
  }
  /** The session's last write as first read (another tab's writes while this page starts change it). */
  let firstRead = "";
  if (persistence)
    try {
      firstRead = await persistence.lastWrite();
      saved = await persistence.load();
      savedPipeline = await persistence.loadPipeline();
    } catch (e) {
      saved = null;
      savedPipeline = null;
      unread = message(e);
      unreadLine = storageProblem =
        `The runs saved in this browser could not be read (${unread}), so this page does not save over them: ` +
        "what it trains is not kept (export runs to keep them). A lab of a newer version may read them.";
      lab().setSaveFailed(storageProblem);
    }
  storageProblem = unreadableLine(saved?.unreadable, saved?.leftOut, saved?.notRuns) ?? storageProblem;
  // After a crash, the crash card's "Start without the saved runs": they are kept under Recent experiments and
  // this experiment opens without them (a saved run the page cannot draw would crash it again).
  let setAside: string | null = null;
  if (takeSafeStart(deps.tabStore ?? tabStorage()) && persistence && saved) {
    try {
      // Kept only when it holds training (an untrained one would push a trained one out of a full list).
      const entry = hasProgress(saved, savedPipeline)
        ? await persistence.archive.keep(saved, savedPipeline, Date.now(), true)
        : null;
      setAside = setAsideLine(entry);
      saved = null;
    } catch (e) {
      storageProblem = `The saved runs could not be set aside after the crash (${message(e)}), so they open again.`;
    }
  }
  let spec = opened.spec;
  const fromSaved = opened.source === "default" && opened.notice === null && saved !== null;
  if (fromSaved && saved) {
    const read = savedExperiment(saved);
    spec = read.spec;
    if (read.line) storageProblem = storageProblem ? `${storageProblem} ${read.line}` : read.line;
  }
  // A link to an experiment this browser kept (Back, Forward, an old link) reopens it where its runs stopped,
  // as Recent experiments → Open would, unless the saved session is this link's experiment: a reload, even one
  // before its runs saved a step (after a Reset or a second Pipeline hand-off, which kept the same link's
  // runs: reopening them would undo what the user just did).
  let reopened: string | null = null;
  const writer = newWriterId();
  // A link to another experiment than the saved one (not a reload): runs it shares with the saved session resume
  // there, the others start over, and the notice then says which are which.
  const otherLink = opened.source === "url" && !(saved && matchesLink(saved.spec, spec));
  if (persistence && otherLink) {
    try {
      const entry = (await persistence.archive.list()).find((e) => matchesLink(e.spec, spec));
      if (entry) {
        // Claimed first: a tab that saves another experiment must not write its runs into the one swapped in
        // (its next checkpoint would land in this experiment's run of the same id, and resume here).
        await persistence.claim(writer);
        await persistence.archive.swapIn(entry.id);
        saved = await persistence.load();
        savedPipeline = await persistence.loadPipeline();
        reopened = `Reopened ${experimentTitle(entry.spec, entry.startModel)} from this browser's kept experiments, where its runs stopped.`;
      }
    } catch (e) {
      storageProblem = `A kept copy of this experiment could not be reopened (${message(e)}).`;
    }
  }
  // Runs imported for comparison come back as curves only: the worker never gets them (links leave them out,
  // but the spec saved in this browser lists them). They belong to the experiment they were imported into: a
  // lesson on the same task, model and seed is another one (its runs may resume, the curves are kept with theirs).
  const same = saved !== null && sameExperiment(spec, saved.spec);
  const sameLesson = same && saved?.spec.preset === spec.preset;
  const comparisons = sameLesson ? (saved?.runs.filter((r) => r.comparison) ?? []) : [];
  const imported = new Set(comparisons.map((r) => r.spec.id));
  if (imported.size) spec = { ...spec, runs: spec.runs.filter((r) => !imported.has(r.id)) };
  // A fork or an import that will not resume (no checkpoint of it here) starts from the start model: its label
  // stops naming a history it does not have, in the worker, the store and the link alike.
  const named = spec;
  spec = relabelStartingOver(spec, saved, deps.loadRunCheckpoint !== undefined);
  const renamed = new Map(
    spec.runs.flatMap((r, i) => (r.label !== named.runs[i].label ? [[r.id, named.runs[i].label]] : [])),
  );
  lab().setView(opened.view);
  lab().setSpec(spec);
  lab().setNotice(opened.notice);
  // The Pipeline comes back with the experiment it belongs to (as the runs do); another one replaces both.
  // (A record of another version may lack its models.)
  const pipeline = same && savedPipeline?.models?.task === spec.task ? savedPipeline : null;
  await deps.start(spec, pipeline?.models);
  const ready = lab().phase === "ready";
  // Another tab may have saved since the read above: what resumes, and what is kept below, is what storage holds
  // now. This tab claims the session right after, so that no later write of that tab lands in neither.
  // (Not after a swap: this tab claimed the session then, and nothing else writes it.)
  const stored =
    persistence && ready && saved && !reopened ? await readIfWritten(persistence, firstRead) : null;
  if (stored && saved && sameExperiment(stored.spec, saved.spec)) saved = stored;
  const reachedIn = deps.reachedStore ?? pageStorage();
  // Taken in any case; a kept experiment swapped in ignores it (the record is the one left behind's).
  const taken = reachedIn ? takeReached(reachedIn, spec) : {};
  const reached = reopened ? {} : taken;
  const plan =
    ready && saved ? planRestore(spec, saved, deps.loadRunCheckpoint !== undefined, reached, renamed) : null;
  // Trained runs or Pipeline models this experiment replaces are kept (Recent experiments) before the
  // autosaver overwrites them, as storage holds them now (read again above). A lab that failed to start saves
  // nothing, so it keeps nothing either.
  let kept =
    persistence && saved && plan && dropsTraining(plan.leftOut, savedPipeline, pipeline === null, sameLesson)
      ? await keepReplaced(
          persistence,
          stored ?? saved,
          savedPipeline,
          // No link: the saved experiment itself opened, some of its runs left out (their settings were reset).
          fromSaved ? "as saved before this page opened" : undefined,
        )
      : { line: null, ok: true };
  if (persistence && unread === null && ready && kept.ok) persistence.claim(writer);
  // Its view as read (storage may hold one of another version): what cannot be read is said, not shown.
  const view =
    pipeline && ready
      ? savedPipelineView(pipeline.view, { sft: !!pipeline.models?.sft, rm: !!pipeline.models?.rm })
      : null;
  if (view) usePipelineStore.getState().restore(view.view);
  else if (savedPipeline && ready && kept.ok) await persistence?.savePipeline(null).catch(() => {});
  // The link's Pipeline settings (the page's latest: the URL follows them; or the sharer's) replace the saved
  // ones whole; a link without any (all defaults, or a lesson's) keeps what was restored.
  if (Object.keys(opened.pipeline).length > 0)
    usePipelineStore.getState().setSettings({ ...DEFAULT_PIPELINE_SETTINGS, ...opened.pipeline });
  addNotice(opened.notice);
  addNotice(setAside);
  addNotice(storageProblem);
  addNotice(view?.line ?? null);
  addNotice(reopened);
  addNotice(kept.line);
  addNotice(discardedLine());

  const resumed = new Set<string>();
  if (plan && saved) {
    // The runs as the worker started them (a reward model made in the page is not kept: those run on gold).
    const started = new Map(lab().spec.runs.map((r) => [r.id, r]));
    lab().restoreRuns(
      plan.runs.map((r) => {
        const spec = started.get(r.spec.id) ?? r.spec;
        // A fork's fork point comes from the saved run (a link does not carry it): see planRestore.
        const ck = plan.checkpoints.find((c) => c.runId === r.spec.id);
        return {
          ...r,
          spec: r.spec.forkOf ? { ...spec, forkOf: r.spec.forkOf } : spec,
          samples: [],
          error: null,
          ...(ck && { resuming: true, resumedAt: ck.at.step }),
        };
      }),
    );
    for (const r of plan.runs) {
      const spec = lab().runs[r.spec.id]?.spec;
      if (r.spec.forkOf && spec) lab().upsertRun(spec);
    }
    let startedOver = false;
    for (const ck of plan.checkpoints) {
      try {
        const told = await deps.loadRunCheckpoint?.(ck.runId, ck.bytes, ck.at);
        resumed.add(ck.runId);
        if (typeof told === "string") addNotice(told);
      } catch (e) {
        const run = lab().runs[ck.runId];
        // Removed while its checkpoint loaded (Play is off, the cards are not): nothing starts over.
        if (!run) continue;
        lab().restoreRuns([
          {
            ...run,
            step: 0,
            history: [],
            markers: [],
            status: "ready",
            resuming: undefined,
            resumedAt: undefined,
            untrained: undefined,
          },
        ]);
        lab().unfork(ck.runId);
        addNotice(
          `${run.spec.label} could not resume from its saved checkpoint (${message(e)}); it starts over.`,
        );
        startedOver = true;
      }
    }
    // Every saved run is back (or starts over): Play and Step may go (what follows only writes storage).
    lab().setRestoring(false);
    // A saved run that did not resume (its start model did not load as when it was saved, say) starts over here:
    // the session as saved is kept first (Recent experiments), so that its training is not lost with it.
    if (startedOver && persistence && kept.ok && !kept.line) {
      const stored = (await persistence.load().catch(() => null)) ?? saved;
      kept = await keepReplaced(
        persistence,
        stored,
        savedPipeline,
        "as saved before this page opened",
        "free some of this browser's storage (other sites' data, say), then reload to keep it and start over",
      );
      addNotice(kept.line);
    }
    addNotice(plan.notice);
    // A link that could not be read opened the default experiment: its runs that match saved ones resumed.
    const fellBack = opened.source === "default" && opened.notice !== null;
    if ((otherLink && !reopened) || fellBack) {
      // Runs of the saved session that had curves but do not resume have a line of their own already (no
      // checkpoint yet, or one that failed to load): not named twice.
      const runs = lab().spec.runs;
      const told = new Set(
        saved.runs
          .filter(
            (s) =>
              s.history.length > 0 &&
              !resumed.has(s.spec.id) &&
              runs.some((r) => r.id === s.spec.id && sameRun(r, s.spec, lab().spec.seed)),
          )
          .map((s) => s.spec.id),
      );
      addNotice(
        mixedStartLine(
          runs.filter((r) => !told.has(r.id)),
          resumed,
          fellBack,
        ),
      );
    }
  }
  lab().setRestoring(false);
  for (const line of startingOverLines(
    ready ? lab().spec.runs : [],
    renamed,
    same ? (saved?.runs ?? []) : [],
  ))
    addNotice(line);
  if (ready)
    for (const r of comparisons) {
      lab().upsertRun(r.spec);
      lab().restoreRuns([{ ...r, samples: [], error: null, comparison: true }]);
    }
  // A checkpoint saved under a run id that did not resume belongs to other weights (another experiment, or a
  // run that starts over): a reload must not resume from it.
  const stale = saved?.runs.filter((r) => r.checkpoint && !resumed.has(r.spec.id)) ?? [];
  if (persistence && kept.ok && deps.loadRunCheckpoint)
    for (const r of stale) await persistence.deleteCheckpoint(r.spec.id).catch(() => {});

  // Save only a lab that started (a failed start must not overwrite the saved runs with empty ones), and
  // never over a session that could not be kept.
  let saving =
    persistence && unread === null && lab().phase === "ready" && kept.ok
      ? startSaving(persistence, deps, addNotice, writer)
      : null;
  // What was kept is now replaced in storage at once, so a quick reload does not keep it a second time.
  if (saving && kept.line) await saving.autosaver.flush();
  setOpenSaving(
    saving,
    !persistence
      ? "this browser's storage is unavailable"
      : unread !== null
        ? "the runs saved in this browser could not be read, so this page does not save over them"
        : !kept.ok
          ? "the experiment open before could not be kept, so this page does not save over it"
          : lab().phase !== "ready"
            ? "the lab did not start"
            : null,
  );
  // Not saved at all (no storage, or storage this page must not write): the browser asks before a reload or
  // a close loses training (as in a tab another tab took saving from), until this page saves.
  let unguard = !saving && lab().phase === "ready" ? askBeforeLosingTraining() : () => {};
  // The saved experiment cannot be read: the user may discard it (asked first), and this page then saves.
  const offer =
    persistence && unread !== null && lab().phase === "ready"
      ? offerDiscard({
          persistence,
          unread,
          line: unreadLine,
          begin: () => {
            unguard();
            unguard = () => {};
            const s = startSaving(persistence, deps, addNotice, writer);
            saving = s;
            setOpenSaving(s);
            return s;
          },
        })
      : null;
  const stopUrl = startUrlSync();
  const stopThawWatch = noticeWhenThawed(addNotice, () => lab().playing);
  return {
    get autosaver() {
      return saving?.autosaver ?? null;
    },
    stop() {
      offer?.withdraw();
      unguard();
      const landed = saving?.stop() ?? Promise.resolve();
      saving?.close();
      if (openSaving() === saving) setOpenSaving(null);
      stopUrl();
      stopThawWatch();
      stopWatching();
      return landed;
    },
  };
}
