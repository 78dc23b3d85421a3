/**
 * A chart's drawing through the page's redraw queue (redraw_queue.ts): the props it was last drawn with, null until
 * its first turn. Redrawn only while on screen or while the lab is paused; at most once per MIN_REDRAW_MS (the
 * small charts once per MIN_REDRAW_MS_COMPACT); the main charts before the small ones, off-screen ones last.
 */

import { startTransition, useEffect, useRef, useState } from "react";
import { useLab } from "../lab_store";
import { scheduleRedraw } from "./redraw_queue";

/**
 * Shortest time between two redraws of one chart (ms): at most 2.5 redraws a second however fast the runs step
 * (the lab's target is ≥ 2 Hz), so fast runs do not keep the main thread busy redrawing.
 */
const MIN_REDRAW_MS = 400;
/** The same for the small diagnostics charts ("more metrics"): once a second is enough for them. */
const MIN_REDRAW_MS_COMPACT = 1000;

/**
 * The props to draw (`props` as they were at the chart's last turn in the queue), or null before its first turn.
 * @param props the chart's newest props (identity compared: a new object queues a redraw).
 * @param inView whether the chart is on screen (in_view.ts).
 */
export function useQueuedDraw<P extends { compact?: boolean }>(props: P, inView: boolean): P | null {
  // Null until the queue gives the chart its first drawing: a chart that appears (a diagnostic's first point, a
  // run added) is drawn in its turn like any redraw, so a dozen charts appearing at one step make no long task.
  const [shown, setShown] = useState<P | null>(null);
  // The newest props; a queued redraw picks them up when it runs (a queued redraw is never re-queued, so a
  // chart whose parent re-renders often still redraws once per MIN_REDRAW_MS at most).
  const latest = useRef(props);
  latest.current = props;
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const cancel = useRef<(() => void) | null>(null);
  /** The queue's release for the redraw in flight, called once its picture is committed. */
  const release = useRef<(() => void) | null>(null);
  const lastDraw = useRef(Number.NEGATIVE_INFINITY);
  // While the lab is paused a chart scrolled away catches up too, last in the queue (the main thread is idle),
  // so scrolling down to it later shows the current picture at once rather than redrawing then.
  const paused = useLab((s) => !s.playing && s.steppingFrom === null);
  const priority = !inView ? 2 : props.compact ? 1 : 0;
  /** The priority of the redraw queued (cancel.current), so a chart that scrolls into view is not left last. */
  const queuedAt = useRef(priority);
  useEffect(() => {
    if (cancel.current && (queuedAt.current !== priority || !(inView || paused))) {
      cancel.current();
      cancel.current = null;
    }
    if (!(inView || paused) || cancel.current || shown === props) return;
    const wait =
      lastDraw.current + (props.compact ? MIN_REDRAW_MS_COMPACT : MIN_REDRAW_MS) - performance.now();
    queuedAt.current = priority;
    cancel.current = scheduleRedraw(wait, priority, (done) => {
      cancel.current = null;
      lastDraw.current = performance.now();
      if (latest.current === shownRef.current) return done();
      release.current = done;
      startTransition(() => setShown(latest.current));
    });
  }, [props, shown, inView, paused, priority]);
  // The new picture is committed: free the queue after the next frame (recharts renders once more in it).
  useEffect(() => {
    const done = release.current;
    // (Runs on each commit of a new `shown`; the comparison only names the dependency.)
    if (!done || shown === undefined) return;
    release.current = null;
    const frame = requestAnimationFrame(() => setTimeout(done, 0));
    return () => {
      cancelAnimationFrame(frame);
      done();
    };
  }, [shown]);
  useEffect(
    () => () => {
      cancel.current?.();
      release.current?.();
      // Cleared, so an effect that runs again (StrictMode's remount in development) queues the drawing anew.
      cancel.current = null;
      release.current = null;
    },
    [],
  );
  return shown;
}
