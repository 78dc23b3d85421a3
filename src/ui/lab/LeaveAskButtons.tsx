/**
 * The notice's answers when Back, Forward or a pasted link would forget training (./history_leave.ts): "Open the
 * link anyway" leaves for it as the Change… dialog does (saving first), "Stay" keeps this experiment open. Shown
 * only while the notice asks.
 */
import { useLab } from "../lab_store";
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

export function LeaveAskButtons() {
  const ask = useLeaveAsk((s) => s.ask);
  const asking = useLab((s) => (ask !== null && s.notice?.includes(ask.line)) ?? false);
  if (!ask || !asking) return null;
  return (
    <>
      <button
        type="button"
        className="save-here"
        data-testid="leave-ask-open"
        onClick={() => void openAnyway()}
      >
        Open the link anyway
      </button>
      <button type="button" className="save-here" data-testid="leave-ask-stay" onClick={() => answered()}>
        Stay
      </button>
    </>
  );
}
