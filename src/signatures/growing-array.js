// growing-array: an array that only grows (a request log, samples kept "for later", a list of
// handlers that are not event listeners). Runs last: listener lists and closure lists are arrays
// too, and their own signatures explain them better. One module per shape in arrays/:
//
//   module-children.js  a module's children, copies of one module reloaded through require.cache
//   node-lists.js       a list Node owns (its enabled async hooks)
//   program-arrays.js   an array of the program (its elements may be views of big buffers, or a
//                       library's records of work never ended: library-records.js)
//
// The words are in arrays/array-words.js.

import { commonClasses } from '../query/held-objects.js'
import { collectionGrowth } from './collection-growth.js'
import { holderLocation } from './holder-location.js'
import { nodeOwner } from './node-owned.js'
import { reloadedModules } from './node-owned/module-reloads.js'
import { ID } from './arrays/array-words.js'
import { reloadMatch } from './arrays/module-children.js'
import { nodeListMatch } from './arrays/node-lists.js'
import { programArrayMatch } from './arrays/program-arrays.js'
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export { ID }

/** @type {Signature} */
export const growingArray = { id: ID, match: matchGrowingArray }

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchGrowingArray (input) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const growth = collectionGrowth(input, g, ['array'])
    if (growth === null) continue
    const { path } = growth
    const elementClasses = commonClasses(last, growth.newValues)
    const reload = reloadedModules(last, path, growth.newValues, cwd)
    if (reload !== null) {
      matches.push(reloadMatch(input, g, growth, reload, elementClasses))
      continue
    }
    const holder = holderLocation(last, path, cwd, names)
    const node = holder === null || holder.location.file.startsWith('node:') ? nodeOwner(last, path, cwd, names, growth.newValues) : null
    matches.push(node !== null ? nodeListMatch(input, g, growth, node, elementClasses) : programArrayMatch(input, g, growth, holder, elementClasses))
  }
  return matches
}
