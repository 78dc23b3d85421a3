/**
 * Opening the asked-about experiment after all (./LeaveAskButtons.tsx).
 */
import { answered, askToLeave, lossOnLeaving, useLeaveAsk } from "./history_leave";
import { leaveFor, recentExperiments } from "./saving";

/**
 * "Open the link anyway": the link asked about opens through the usual way out (saving first). What leaving
 * loses is checked again first: training since the question may have changed it (this experiment now holds
 * more than a kept one, which would be forgotten instead), and then the notice asks again with the new line.
 */
export async function openAnyway(): Promise<boolean> {
  const ask = useLeaveAsk.getState().ask;
  if (!ask) return false;
  const checking = lossOnLeaving(ask.url, recentExperiments);
  const loss = checking && (await checking);
  if (useLeaveAsk.getState().ask !== ask) return false; // answered (or asked anew) meanwhile
  if (loss && loss.key !== ask.key) {
    askToLeave(ask.url, loss);
    return false;
  }
  answered();
  return leaveFor(ask.url);
}
