// A module's `children` that grows with copies of one module the program reloads through
// require.cache: located at the program's `delete require.cache`, never a bound on Node's array.

import { reloadSite } from '../node-owned/module-reloads.js'
import { reloadFix } from '../node-owned/node-words.js'
import { RELOAD_ROLE, reloadTitle } from './array-words.js'
import { nodeListFinding } from './node-lists.js'
/** @import {CollectionGrowth} from '../collection-growth.js' */
/** @import {Match, SignatureInput} from '../finding.js' */

/**
 * @param {SignatureInput} input
 * @param {number} g
 * @param {CollectionGrowth} growth
 * @param {{file: string | null, parent: string | null}} reload  the reloaded module and the one that requires it
 * @param {string[]} elementClasses
 * @returns {Match}
 */
export function reloadMatch (input, g, growth, reload, elementClasses) {
  const last = input.detail.analyses[input.detail.analyses.length - 1]
  const site = reloadSite(last, reload.file, input.cwd, input.names)
  // A parent whose filename is a slice of a longer string (Node 24's createRequire) has no text of
  // its own in the snapshot: the script that reloads is the one that requires.
  const card = reloadFix({ ...reload, parent: reload.parent ?? site?.file ?? null })
  return nodeListFinding(g, growth, elementClasses, {
    module: 'node:internal/modules/cjs/loader',
    title: reloadTitle(card.subject, growth.counts, reload.file),
    note: null,
    library: null,
    location: site,
    locationRole: site === null ? null : RELOAD_ROLE,
    fix: card
  })
}
