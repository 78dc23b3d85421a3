/**
 * The notice's answers when the lab is embedded in another site's page and the browser keeps it from saving
 * (./embed_storage.ts): "Open in its own tab ↗" (a new tab on the lab's current address, so the same
 * experiment opens, saving there), and "Let it save" where the browser offers storage access to this frame.
 * Shown only while the notice says so.
 */
import { useEffect, useState } from "react";
import { useLab } from "../lab_store";
import { canAskForStorage, EMBEDDED_NO_STORAGE_LINE, letItSave } from "./embed_storage";
import { writeUrlNow } from "./url_sync";

export function EmbedStorageButtons() {
  const shown = useLab((s) => s.notice?.includes(EMBEDDED_NO_STORAGE_LINE) ?? false);
  const [canAsk, setCanAsk] = useState(false);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!shown) return;
    let live = true;
    void canAskForStorage().then((can) => live && setCanAsk(can));
    return () => {
      live = false;
    };
  }, [shown]);
  if (!shown) return null;
  return (
    <>
      <a
        className="save-here"
        data-testid="open-own-tab"
        href={location.href}
        target="_blank"
        rel="noopener"
        // The address as the lab is now (a knob just moved may not be written yet): the same experiment opens.
        onClick={(e) => {
          e.currentTarget.href = writeUrlNow();
        }}
        onAuxClick={(e) => {
          e.currentTarget.href = writeUrlNow();
        }}
      >
        Open in its own tab ↗
      </a>
      {canAsk && (
        <button
          type="button"
          className="save-here"
          data-testid="let-it-save"
          disabled={asking}
          onClick={async () => {
            setAsking(true);
            const line = await letItSave();
            setAsking(false);
            if (!line) return; // reloading
            setCanAsk(false);
            const now = useLab.getState().notice;
            useLab.getState().setNotice(now ? `${now} ${line}` : line);
          }}
        >
          Let it save
        </button>
      )}
    </>
  );
}
