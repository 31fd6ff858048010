// What the program's write to a growing collection says, read from its syntax tree: the parts of
// the write (the collection, the key and the value as written), and the statements that take the
// same entry out again later in the same function or in a callback it makes. A removal that only
// some paths reach (the line after an await that may reject, the end of a block an early return
// skips) explains why entries stay although the program deletes them: the entries the heap keeps
// are those whose removal never ran: a throw, a rejected await or a return before it.

import { codeName } from '../write-sites.js'
import { scriptFunctions, scriptText } from '../script-functions.js'
import { scriptSyntax } from '../../syntax/script-syntax.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {Step} from '../../analysis/retainer-paths.js' */
/** @import {SourceLocation} from '../finding.js' */
/** @import {HolderLocation} from '../holder-location.js' */
/** @import {ScriptSyntax} from '../../syntax/script-syntax.js' */
/** @import {WriteParts} from '../../syntax/collection-writes.js' */

/**
 * @typedef {object} EntryWrite
 * @property {WriteParts} parts     the write as written
 * @property {string} text          the write's whole text (`inFlight.set(id, request)`)
 * @property {ScriptSyntax} syntax  its script's
 * @property {EntryRemoval | null} removal  the first later removal of the same key, when no
 *   removal of it runs on every path; null when there is none, or one runs on every path
 */

/**
 * A removal of the written entry that some paths skip.
 * @typedef {object} EntryRemoval
 * @property {string} text            as written (`inFlight.delete(id)`)
 * @property {SourceLocation} location
 */

/**
 * The program's write at `site` to the collection the path ends at, or null when the holder's
 * script text is not known or no write of that collection starts there.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {HolderLocation} holder where the write sites were looked for (write-sites.js)
 * @param {SourceLocation} site one of the write sites
 * @param {Step} step the path's last step: the collection's variable or property
 * @param {NameResolver} names for the script's whole text
 * @returns {EntryWrite | null}
 */
export function entryWrite (analysis, holder, site, step, names) {
  if (holder.scriptId === undefined) return null
  const scriptId = holder.scriptId
  const text = scriptText(analysis, scriptFunctions(analysis, (id) => id === scriptId).get(scriptId) ?? [], names)
  if (text === null) return null
  const syntax = scriptSyntax(text)
  const offset = syntax.offsetOf(site.line - 1, site.column - 1)
  const name = codeName(step)
  const member = step.edgeType === 'property'
  const parts = offset < 0 ? null : syntax.writeAt(name, member, offset)
  if (parts === null) return null
  const scope = syntax.scopeAt(offset)
  // The same entry (the key as written, or the value for a Set) taken out after the write, in its
  // function or in a callback made there.
  const key = parts.key ?? parts.value
  const same = syntax.removalsFrom(name, member).filter((removal) => removal.key === key && removal.start >= parts.end &&
    syntax.commonScope(syntax.scopeAt(removal.start), scope) === scope)
  const first = same[0]
  // A removal under a condition of its own (`if (done) cache.delete(id)`) may be meant for some
  // entries only: the text does not say which paths should take the entry out.
  const onePath = first !== undefined && same.every((removal) => removal.everyPath === null && !syntax.branchesApart(parts.start, removal.start))
  if (!onePath) return { parts, text: text.slice(parts.start, parts.end), syntax, removal: null }
  const { line, column } = syntax.positionOf(first.start)
  return {
    parts,
    text: text.slice(parts.start, parts.end),
    syntax,
    removal: { text: text.slice(first.start, first.end), location: { file: site.file, line: line + 1, column: column + 1, function: site.function } }
  }
}
