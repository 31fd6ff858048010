// Findings whose entries hold native memory that grew (a zlib context, a stream's handle): the
// memory is released by ending, closing or destroying each resource, not by bounding the
// collection, so the fix says that and keeps the signature's own as a note.

import { CLASS_LISTS } from './class-rows.js'
/** @import {MemorySplit} from '../diff/memory-split.js' */
/** @import {Finding} from '../signatures/finding.js' */

/**
 * @param {Finding[]} findings
 * @param {MemorySplit} memory
 * @returns {Finding[]}
 */
export function releaseFixes (findings, memory) {
  const holders = new Map(memory.nativeKinds.flatMap((kind) => kind.holders.flatMap((holder) => holder.name.split('/').map((name) => [name, kind]))))
  if (holders.size === 0) return findings
  return findings.map((finding) => {
    const classes = CLASS_LISTS.flatMap((key) => (Array.isArray(finding.evidence[key]) ? finding.evidence[key] : []))
    const holder = classes.find((name) => holders.has(name))
    const kind = holder === undefined ? undefined : holders.get(holder)
    if (holder === undefined || kind === undefined) return finding
    const grown = (kind.bytes.at(-1) ?? 0) - kind.bytes[0]
    const each = kind.counts.at(-1) ? Math.round((kind.bytes.at(-1) ?? 0) / /** @type {number} */ (kind.counts.at(-1))) : 0
    return {
      ...finding,
      native: { kind: kind.name, holder, bytes: grown, bytesEach: each },
      evidence: { ...finding.evidence, notes: [...finding.evidence.notes, `each ${holder} keeps native memory outside the JS heap (${kind.name}, ~${Math.round(each / 1024)} kB each): it counts against the process's memory limit, not V8's heap limit; bounding the collection alone would only cap it (${finding.fix.summary})`] },
      fix: {
        summary: `release each ${holder} when its work is done: end() it (or close() / destroy() it) and remove it from the collection; its native memory goes when it is closed.`,
        snippet: `${holder.charAt(0).toLowerCase()}${holder.slice(1)}.end()      // or .close() / .destroy()\n${finding.path.findLast((step) => step.edgeType === 'property' || step.edgeType === 'context')?.edge ?? 'collection'}.delete(key)`
      }
    }
  })
}
