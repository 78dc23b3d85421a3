/**
 * The notice's answer when the lab is embedded in another site's page and the browser keeps it from saving
 * (./embed_storage.ts): "Open in its own tab ↗", a new tab on the lab's current address, so the same experiment
 * opens, saving there. Shown only while the notice says so. No storage-access request: ./embed_storage.ts says why.
 */
import { useLab } from "../lab_store";
import { EMBEDDED_NO_STORAGE_LINE } from "./embed_storage";
import { writeUrlNow } from "./url_sync";

export function EmbedStorageButtons() {
  const shown = useLab((s) => s.notice?.includes(EMBEDDED_NO_STORAGE_LINE) ?? false);
  if (!shown) return null;
  return (
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
  );
}
