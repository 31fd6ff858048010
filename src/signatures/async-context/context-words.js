// The words of an async-context-retention finding: its title, its notes, its fix and the reasons
// for its confidence.

import { bytesText, countText, namedCounts, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
import { STORE_EDGE_NAMES } from './context-stores.js'
/** @import {SourceLocation} from '../finding.js' */

/** How the code at the finding's location relates to the stores, for the card. */
export const CREATOR_ROLE = 'creates the resources that keep them'

/**
 * How a resource holds a store: through its frame (Node 24) or its own store property.
 * @param {boolean} throughFrames
 */
function throughText (throughFrames) {
  return throughFrames ? 'their AsyncContextFrame' : STORE_EDGE_NAMES[1]
}

/** Why the confidence is what it is: one clause per fact the matcher weighs. */
export const CONTEXT_REASONS = Object.freeze({
  /** @param {number} share  of the growth row's new objects, what the stores retain */
  share: (share) => `the stores retain ${percent(share)} of the growth row's new objects`,
  /** @param {boolean} throughFrames  most resources hold their store through a frame */
  through: (throughFrames) => `each is held through ${throughText(throughFrames)}: an async resource created in its context keeps it`,
  /**
   * @param {number} share  of the resources, those from the located code
   * @param {SourceLocation} location
   */
  location: (share, location) => `${percent(share)} of the resources come from code at ${location.file}:${location.line}`,
  unlocated: 'the heap does not name the code that created the resources'
})

/**
 * @param {string[]} storeClasses  the new stores' most common classes
 * @param {Array<{name: string, count: number}>} resourceClasses  the resources' most common classes
 * @param {string | null} holder  the name of what keeps the resources (holderName of the row's path)
 * @param {{id: number, name: string}} owner  the row's owner
 * @param {number[]} counts  stores per snapshot
 */
export function contextTitle (storeClasses, resourceClasses, holder, owner, counts) {
  const resourceText = `${resourceClasses.length === 0 ? 'async' : resourceClasses.map((c) => c.name).join(', ')} resources`
  const keptBy = holder === null ? `${owner.name} @${owner.id}` : `${holder} (${owner.name})`
  return `AsyncLocalStorage stores (${storeClasses[0] ?? 'Object'}) stay alive through ${resourceText} created in their context and kept by ${keptBy}: ${counts.map((c) => countText(c)).join(' → ')} stores.`
}

/**
 * The card's lines.
 * @param {number} newStores
 * @param {string[]} storeClasses
 * @param {number} bytesEach  what one new store retains, on average
 * @param {Array<{name: string, count: number}>} resourceClasses
 * @param {boolean} throughFrames
 */
export function contextNotes (newStores, storeClasses, bytesEach, resourceClasses, throughFrames) {
  return notesOf([
    `${countText(newStores)} new stores (${storeClasses.join(', ')}), ~${bytesText(bytesEach)} each`,
    resourceClasses.length > 0 && `kept by ${namedCounts(resourceClasses)} through ${throughText(throughFrames)}`
  ])
}

/**
 * @returns {{summary: string, snippet: string}}
 */
export function contextFix () {
  return {
    summary: "do not start long-lived work inside the request's context: run it outside (als.exit() or a function bound with AsyncResource.bind() at start-up) or end it with the request; keep stores small (ids, not req/res).",
    snippet: '// at start-up, outside any request:\nconst inBackground = AsyncResource.bind((task) => task())\n// in the handler (or als.exit(() => flushLater(id))):\ninBackground(() => flushLater(id))'
  }
}
