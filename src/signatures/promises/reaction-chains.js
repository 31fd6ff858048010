// One long-lived pending promise collects a reaction per call (`.then`, `await`, each input of
// Promise.race): a shutdown signal, a "ready" promise that failed silently. The promise's
// `reactions_or_result` is the newest PromiseReaction, linked to older ones, so the promise is the
// growth owner of every new reaction (or an old reaction is, when the promise itself is shared).

import { AGE_OLD } from '../../query/ages.js'
import { growsEveryStep, judgeGrowth, perStepOf, retainedById } from '../growth-evidence.js'
import { holderName } from '../collection-growth.js'
import { holderLocation } from '../holder-location.js'
import { useOffsets, writeSites } from '../write-sites.js'
import { MAX_HANDLERS, MIN_NEW_REACTIONS, collectHandlers, countReactions, dominantHandler, pendingPromiseOf } from './promise-reactions.js'
import { ID, PROMISE_REASONS, USE_ROLE, reactionsFix, reactionsNotes, reactionsTitle } from './promise-words.js'
import { leakingRows } from '../leaking-rows.js'
/** @import {Match, SignatureInput} from '../finding.js' */

/**
 * The rows whose owner is a pending promise (or part of its reaction list) that gained reactions in
 * every step, and the leaking rows that are no promise's.
 * @param {SignatureInput} input
 * @returns {{matches: Match[], otherRows: number[]}}
 */
export function reactionChains (input) {
  const { detail, cwd, names } = input
  const { analyses, ages } = detail
  const last = analyses[analyses.length - 1]
  const { graph } = last
  /** @type {Match[]} */
  const matches = []
  /** @type {number[]} */
  const otherRows = []
  for (const { group: g, row, owner: representative } of leakingRows(input)) {
    const promise = pendingPromiseOf(last, representative)
    if (promise < 0) {
      otherRows.push(g)
      continue
    }
    const promiseId = graph.nodeIds[promise]
    const counts = analyses.map((analysis) => {
      const o = analysis.graph.findOrdinalById(promiseId)
      return o < 0 ? 0 : countReactions(analysis.graph, o, () => {})
    })
    /** @type {number[]} */
    const handlers = []
    let newReactions = 0
    countReactions(graph, promise, (reaction) => {
      if (ages[reaction] === AGE_OLD) return
      newReactions++
      if (handlers.length < MAX_HANDLERS) collectHandlers(graph, reaction, handlers)
    })
    if (!growsEveryStep(counts) || newReactions < MIN_NEW_REACTIONS) continue

    const retained = retainedById(analyses, promiseId)
    const rowGrowth = row.retainedAfter - row.retainedBefore
    const share = rowGrowth > 0 ? Math.min(1, Math.max(0, (retained[retained.length - 1] - retained[0]) / rowGrowth)) : 0
    const { location: handlerAt, locationShare } = dominantHandler(last, handlers, cwd, names)
    // Built-in handlers (await, Promise.race) do not name the caller: the program's own use of the
    // promise, read from its script's text, does (`Promise.race([shutdown, work])`).
    const uses = handlerAt === null ? writeSites(last, row.path, holderLocation(last, row.path, cwd, names), { offsetsOf: useOffsets, role: USE_ROLE, cwd, names }) : null
    const location = handlerAt ?? uses?.location ?? null
    const facts = [
      { weight: 0, reason: PROMISE_REASONS.pending },
      { weight: 0.1 * share, reason: PROMISE_REASONS.reactions(share) }
    ]
    if (handlerAt !== null) facts.push({ weight: 0.05 * locationShare, reason: PROMISE_REASONS.handlers(locationShare, handlerAt) })
    else facts.push({ weight: 0, reason: PROMISE_REASONS.builtInHandlers })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const name = holderName(row.path)
    const bytesEach = (retained[retained.length - 1] - retained[0]) / Math.max(1, counts[counts.length - 1] - counts[0])
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: reactionsTitle(name, promiseId, counts),
        confidence,
        reasons,
        owner: { id: promiseId, name: last.classes.names[last.classOf[promise]], type: graph.nodeTypeName(promise) },
        path: row.path,
        evidence: {
          unit: 'reactions',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: 1,
          newReactions,
          bytesPerReaction: Math.round(bytesEach),
          notes: reactionsNotes(newReactions, bytesEach, handlerAt === null, name, uses),
          ...(uses === null ? {} : { locationRole: uses.role })
        },
        location,
        fix: reactionsFix()
      }
    })
  }
  return { matches, otherRows }
}
