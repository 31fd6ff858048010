// A list Node's own code holds (its enabled async hooks, the performance timeline's buffers) that
// grows: the program cannot shorten it, only stop adding to it, or take its entries out with the
// call Node offers for them (performance.clearMarks()). The card names the records the program
// makes per call and never ends, and where their callbacks come from, never a bound on Node's own
// array.

import { holderName } from '../collection-growth.js'
import { nodeRecords } from '../node-owned/node-records.js'
import { programApiCall } from '../node-owned/api-calls.js'
import { nodeCollectionFix, nodeRecordsFix, recordMaker, releaseCall } from '../node-owned/node-words.js'
import { arrayFinding } from './array-finding.js'
import { CALLBACKS_ROLE, MAKES_ROLE, callbacksNote, nodeListNotes, nodeListTitle } from './array-words.js'
/** @import {CollectionGrowth} from '../collection-growth.js' */
/** @import {Match, SignatureInput, SourceLocation} from '../finding.js' */
/** @import {NodeOwner} from '../node-owned.js' */

/**
 * @param {SignatureInput} input
 * @param {number} g
 * @param {CollectionGrowth} growth
 * @param {NodeOwner} node
 * @param {string[]} elementClasses
 * @returns {Match}
 */
export function nodeListMatch (input, g, growth, node, elementClasses) {
  const last = input.detail.analyses[input.detail.analyses.length - 1]
  const { owner, path, counts } = growth
  const name = holderName(path) ?? `${owner.name} @${owner.id}`
  const records = nodeRecords(last, growth.newValues, input.cwd, input.names)
  const card = records === null ? nodeCollectionFix(node, name, [], elementClasses) : nodeRecordsFix(node, records)
  const callbacks = records?.callbacks ?? null
  // Records with no callback of the program's in them: the program's call of the API that makes them.
  const api = records === null || callbacks !== null ? null : recordMaker(records.elementClass)
  const made = api === null ? null : programApiCall(last, api.receiver, api.method, input.cwd, input.names)
  return nodeListFinding(g, growth, elementClasses, {
    module: node.module,
    release: records === null ? null : releaseCall(records.elementClass),
    title: nodeListTitle(card.subject, counts, records),
    note: made === null || api === null ? callbacksNote(callbacks) : madeNote(api, made.calls),
    library: records?.library ?? null,
    location: callbacks ?? made?.location ?? null,
    locationRole: callbacks ? CALLBACKS_ROLE : made ? MAKES_ROLE : null,
    fix: card
  })
}

/**
 * A finding on a list Node's own code holds: the program can only stop adding to it.
 * @param {number} g
 * @param {CollectionGrowth} growth
 * @param {string[]} elementClasses
 * @param {{module: string, release?: string | null, title: string, note: string | null | false, library: string | null,
 *   location: SourceLocation | null, locationRole: string | null, fix: {summary: string, snippet: string}}} card
 * @returns {Match}
 */
export function nodeListFinding (g, growth, elementClasses, { module, release = null, title, note, library, location, locationRole, fix }) {
  return arrayFinding(g, growth, elementClasses, {
    title,
    notes: nodeListNotes(growth.freshShare, module, note, release),
    evidence: { nodeModule: module, library, holderLocation: null, alsoAt: [], locationRole },
    location,
    fix: { summary: fix.summary, snippet: fix.snippet }
  })
}

/**
 * @param {{receiver: string, method: string}} api
 * @param {number} calls  the program's calls of it
 */
function madeNote ({ receiver, method }, calls) {
  return `placed at the program's ${receiver}.${method}() call${calls > 1 ? `, the first in a function of its ${calls}` : ''}: the records hold nothing of the program's`
}
