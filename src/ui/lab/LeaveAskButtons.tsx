/**
 * The notice's answers when Back, Forward or a pasted link would forget training (./history_leave.ts): "Open the
 * link anyway" leaves for it as the Change… dialog does (saving first), "Stay" keeps this experiment open. Shown
 * only while the notice asks.
 */
import { useLab } from "../lab_store";
import { answered, useLeaveAsk } from "./history_leave";
import { openAnyway } from "./open_anyway";

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
