// Findings that share a cause. One mistake often matches two signatures: a client made per call and
// never closed keeps its socket open (retained-sockets) and its heartbeat interval running
// (forgotten-timer). Closing the client ends both; clearing the timers alone would leave every
// socket open. The heap tells which finding is the cause: the client objects that hold the sockets
// hold the timers too (`client.heartbeat`), while nothing the timer finding counts holds the
// sockets or their clients (a timer's callback closes over its client, but what a closure captures
// is the closure's doing, not ownership: a handler that starts an interval around a client it
// never closes made two mistakes, and gets two cards).
//
// So a finding more than half of whose new objects another finding's objects (what it counts, the
// program's objects holding those, its owner) hold, by a property or an element of one of them or
// of an object they alone own (undici's socket holds its idle timer through the socket's parser),
// or with one of them as their only way to the roots (a dominator), is that finding's evidence: one
// card, the other listed under it. Held is asked of the objects, never of signature names. When
// each holds most of the other's (the same objects counted twice), the larger share decides, then
// the rank.
//
// The question needs the heap, so it is asked right after the signatures (sharedCauses); the
// findings are folded (foldSharedCauses) once the later stages (allocation stacks, original
// locations, native memory) have made every finding complete, the evidence ones too.

import { shownClassName } from '../analysis/shown-names.js'
import { AGE_OLD } from '../query/ages.js'
import { dominatedTest, markedInOrder } from '../query/dominator-subtree.js'
import { EdgeCursor } from '../query/references.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {DiffDetail} from '../diff/diff-heaps.js' */
/** @import {Finding, HeldFinding} from '../signatures/finding.js' */

/** A finding is another's evidence when that one's objects hold more than this share of its own. */
const MIN_SHARE = 0.5

/**
 * The finding whose objects hold most of another's, by its index among the findings.
 * @typedef {object} SharedCause
 * @property {number} cause     index of the finding that holds them
 * @property {number} count     new objects of this finding that it holds (that point at its objects,
 *   for 'indexes')
 * @property {number} share     of this finding's new objects
 * @property {string} holderClass  the class of the objects that hold most of them ('held'), or
 *   of the objects it points at ('indexes')
 * @property {'held' | 'indexes'} relation  held: its new objects are held by the cause's objects;
 *   indexes: its new objects point at the cause's, which keep more alive than they do (a second
 *   index of the same records)
 */

/**
 * Per finding, the finding whose objects hold most of its new objects, when they hold more than
 * half of them and more than it holds of theirs; null for a finding that stands on its own.
 * @param {Finding[]} findings  ranked, as matchSignatures returns them
 * @param {DiffDetail | null} detail
 * @param {NameResolver} names  for the holding class's name
 * @returns {Array<SharedCause | null>}
 */
export function sharedCauses (findings, detail, names) {
  /** @type {Array<SharedCause | null>} */
  const causes = findings.map(() => null)
  if (detail === null || findings.length < 2) return causes
  const last = detail.analyses[detail.analyses.length - 1]
  const members = findings.map((finding) => membersOf(finding, last, detail))
  const memberMarks = members.map((list) => {
    const marks = new Uint8Array(last.graph.nodeCount)
    for (const m of list) marks[m] = 1
    return marks
  })
  const holds = findings.map((finding, a) => heldBy(last, [members[a], finding.holders ?? []], ownerOrdinal(last, finding), members, memberMarks, a))
  const retained = members.map((list) => {
    let sum = 0
    for (const m of list) sum += last.retainedSizes.at(m)
    return sum
  })
  // Objects that point at another finding's objects and, besides those, keep less alive than they
  // do are a second index of them (a library's Map of its handler records, beside the array the
  // records are registered in), not their cause: removing an entry frees nothing. That finding is
  // theirs.
  const indexes = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ share) => {
    let own = 0
    for (const m of members[a]) if (memberMarks[b][m] !== 1) own += last.retainedSizes.at(m)
    return own < share * retained[b]
  }
  for (let b = 0; b < findings.length; b++) {
    /** @type {{a: number, count: number, share: number, holders: Map<number, number>} | null} */
    let best = null
    for (let a = 0; a < findings.length; a++) {
      if (a === b || members[b].length === 0) continue
      const { count, holders } = holds[a][b]
      const share = count / members[b].length
      const back = members[a].length === 0 ? 0 : holds[b][a].count / members[a].length
      // The larger share decides which of the two is the cause; on a tie, the higher ranked.
      if (share <= MIN_SHARE || back > share || (back === share && a > b) || indexes(a, b, share)) continue
      if (best === null || share > best.share) best = { a, count, share, holders }
    }
    if (best !== null) causes[b] = { cause: best.a, count: best.count, share: best.share, holderClass: mostCommonClass(last, best.holders, names), relation: 'held' }
  }
  for (let a = 0; a < findings.length; a++) {
    if (causes[a] !== null || members[a].length === 0) continue
    for (let b = 0; b < findings.length; b++) {
      if (a === b || members[b].length === 0 || causes[b]?.cause === a) continue
      const { count } = holds[a][b]
      const share = count / members[b].length
      if (share <= MIN_SHARE || !indexes(a, b, share)) continue
      const { pointing, own } = pointingAt(last, members[a], memberMarks[b])
      if (own === 0) continue
      causes[a] = { cause: b, count: pointing, share: pointing / own, holderClass: mostCommonClass(last, new Map(Array.from(members[b], (m) => [m, 1])), names), relation: 'indexes' }
      break
    }
  }
  return causes
}

/**
 * The findings with each one that has a cause listed under that cause's card (`also`), in rank
 * order; a chain (the timers of the clients of a pool) goes under the finding that holds it all.
 * @template {Finding} F
 * @param {F[]} findings  the same findings, in the same order, as sharedCauses was given
 * @param {Array<SharedCause | null>} causes
 * @returns {F[]}
 */
export function foldSharedCauses (findings, causes) {
  if (causes.every((cause) => cause === null)) return findings
  const rootOf = (/** @type {number} */ i) => {
    const chain = [i]
    for (let up = causes[i]?.cause; up !== undefined; up = causes[up]?.cause) {
      // A ring of causes (each holding most of the next) has no cause outside it: its highest
      // ranked finding stands for it.
      if (chain.includes(up)) return Math.min(...chain.slice(chain.indexOf(up)))
      chain.push(up)
    }
    return chain[chain.length - 1]
  }
  /** @type {Map<number, HeldFinding[]>} */
  const also = new Map()
  /** @type {number[]} */
  const standing = []
  for (const [i, finding] of findings.entries()) {
    const root = rootOf(i)
    const cause = causes[i]
    if (root === i || cause === null) {
      standing.push(i)
      continue
    }
    const { also: own, ...held } = finding
    let list = also.get(root)
    if (!list) also.set(root, (list = []))
    list.push({ ...held, heldBy: { count: cause.count, share: cause.share, holderClass: cause.holderClass, relation: cause.relation } }, ...(own ?? []))
  }
  return standing.map((i) => {
    const list = also.get(i)
    return list === undefined ? findings[i] : { ...findings[i], also: [...(findings[i].also ?? []), ...list] }
  })
}

/**
 * The new objects a finding counts: the ones its matcher names, else the new objects its owner
 * holds: those it dominates, and the new ones its storage or those refer to straight away by a
 * property, an element or a table slot (a Map's entries, even when a timer's callback also reaches
 * them; not what a closure captures).
 * @param {Finding} finding
 * @param {HeapAnalysis} last
 * @param {DiffDetail} detail
 * @returns {number[] | Uint32Array} ascending
 */
function membersOf (finding, last, detail) {
  if (finding.members !== undefined) return finding.members
  const owner = ownerOrdinal(last, finding)
  if (owner < 0) return []
  const { graph } = last
  /** @type {MemberMarks} */
  const marks = { ages: detail.ages, noise: detail.noise, owner, member: new Uint8Array(graph.nodeCount), found: [], edge: new EdgeCursor(graph), context: graph.strings.indexOf('context') }
  // Asked of the new objects only: an owner of a large collection dominates a good part of the
  // heap, most of it old (a climb per new object, each step remembered, reads less than a walk of
  // the subtree or a pass over every node).
  const isDominated = dominatedTest(last, [owner])
  // The owner, its storage (backing stores, a table: internal edges) and its new dominated objects.
  const holders = [owner]
  for (marks.edge.references(owner); marks.edge.next();) if (marks.edge.is('internal') && isDominated(marks.edge.target)) holders.push(marks.edge.target)
  // One loop per function: V8 compiles a long loop while it runs together with the rest of its
  // function, which has not run yet, and compiles again when that rest comes.
  const dominated = markNewOf(marks, detail.newNodes, isDominated)
  markHeldBy(marks, holders)
  markHeldBy(marks, dominated)
  return markedInOrder(marks.member, marks.found)
}

/**
 * A finding's members as membersOf marks them.
 * @typedef {object} MemberMarks
 * @property {Uint8Array} ages
 * @property {Uint8Array} noise
 * @property {number} owner
 * @property {Uint8Array} member  1 for each member, by ordinal
 * @property {number[]} found  the members, in the order marked
 * @property {EdgeCursor} edge
 * @property {number} context  the string index of `context`
 */

/**
 * @param {MemberMarks} marks
 * @param {number} o
 */
function isNewMember ({ ages, noise, owner }, o) {
  return ages[o] !== AGE_OLD && noise[o] !== 1 && o !== owner
}

/**
 * Marks the new objects among `nodes` that pass `test`.
 * @param {MemberMarks} marks
 * @param {Uint32Array} nodes
 * @param {(ordinal: number) => boolean} test
 * @returns {number[]} those marked
 */
function markNewOf (marks, nodes, test) {
  const { noise, owner, member, found } = marks
  for (let i = 0; i < nodes.length; i++) {
    const o = nodes[i]
    if (noise[o] === 1 || o === owner || !test(o)) continue
    member[o] = 1
    found.push(o)
  }
  return found.slice()
}

/**
 * Marks the new objects that `holders` refer to by a property, an element or an internal field
 * that is not a closure's context.
 * @param {MemberMarks} marks
 * @param {ArrayLike<number>} holders
 */
function markHeldBy (marks, holders) {
  const { edge, member, found, context } = marks
  for (let i = 0; i < holders.length; i++) {
    const o = holders[i]
    for (edge.references(o); edge.next();) {
      const target = edge.target
      const owned = edge.is('property') || edge.is('element') || (edge.is('internal') && edge.nameIndex !== context)
      if (owned && member[target] !== 1 && isNewMember(marks, target)) {
        member[target] = 1
        found.push(target)
      }
    }
  }
}

/**
 * Of a finding's new objects that are not another's, how many point at one of that one's by a
 * property or an element.
 * @param {HeapAnalysis} last
 * @param {number[] | Uint32Array} members  the finding's
 * @param {Uint8Array} isOther  the other finding's members, 1 by ordinal
 * @returns {{pointing: number, own: number}}
 */
function pointingAt (last, members, isOther) {
  const edge = new EdgeCursor(last.graph)
  let pointing = 0
  let own = 0
  for (const m of members) {
    if (isOther[m] === 1) continue
    own++
    for (edge.references(m); edge.next();) {
      if ((edge.is('property') || edge.is('element')) && isOther[edge.target] === 1) {
        pointing++
        break
      }
    }
  }
  return { pointing, own }
}

/**
 * @param {HeapAnalysis} last
 * @param {Finding} finding
 */
function ownerOrdinal (last, finding) {
  return last.graph.findOrdinalById(finding.owner.id)
}

/**
 * How many of each other finding's members one finding's objects (its members, their holders and
 * its owner) hold: by a property or an element of one of them or of an object they alone own (a
 * socket's parser holds the socket's idle timer; not one of the held members themselves: the links
 * of a list hold each other), else with one of them as their only way to the roots, else by being
 * one of them (the same object counted by both).
 * @param {HeapAnalysis} last
 * @param {Array<number[] | Uint32Array>} own  the finding's members and their holders
 * @param {number} owner  its owner's ordinal, -1 when the snapshot has none
 * @param {Array<number[] | Uint32Array>} members  every finding's
 * @param {Uint8Array[]} memberMarks  every finding's members, 1 by ordinal
 * @param {number} self  the finding's index
 * @returns {Array<{count: number, holders: Map<number, number>}>} per finding, the members held and
 *   how many each holder holds
 */
function heldBy (last, own, owner, members, memberMarks, self) {
  const { graph, dominators } = last
  const objects = joined(owner < 0 ? own : [...own, [owner]])
  const isObject = new Uint8Array(graph.nodeCount)
  for (const o of objects) isObject[o] = 1
  // Asked of other findings' members and their holders only, and the count stops once the share
  // cannot pass: a climb per question, not a mark of all the objects keep alive.
  const isDominated = dominatedTest(last, objects)
  // What the objects own through others is asked only when a member's holder is such another.
  /** @type {Uint8Array | null} */
  let owned = null
  const isOwned = (/** @type {number} */ o) => isObject[o] === 1 || (isDominated(o) && (owned ??= markOwned(last, objects, isDominated))[o] === 1)
  const edge = new EdgeCursor(graph)
  // The finding's object that alone owns `o`: itself, or the nearest up its dominators. Remembered
  // along the way: the links of a long list each dominate the next.
  /** @type {Uint32Array | null} the owning object + 1, 0 not known yet; made at the first question: most findings hold nothing of another's */
  let ownerOf = null
  /** @type {number[]} */
  const climbed = []
  const ownerIn = (/** @type {number} */ o) => {
    if (ownerOf === null) {
      ownerOf = new Uint32Array(graph.nodeCount)
      for (const object of objects) ownerOf[object] = object + 1
    }
    while (ownerOf[o] === 0) {
      climbed.push(o)
      o = dominators[o]
    }
    const found = ownerOf[o]
    for (const c of climbed) ownerOf[c] = found
    climbed.length = 0
    return found - 1
  }
  return members.map((list, b) => {
    /** @type {Map<number, number>} */
    const holders = new Map()
    let count = 0
    if (b === self) return { count, holders }
    const isMember = memberMarks[b]
    // Once more than this many are not held, the share cannot pass MIN_SHARE: the count is left
    // short, which decides nothing either way (sharedCauses compares shares above MIN_SHARE).
    const maxMisses = (1 - MIN_SHARE) * list.length
    let misses = 0
    for (const m of list) {
      let holder = -1
      for (edge.retainers(m); holder < 0 && edge.next();) {
        if ((edge.is('property') || edge.is('element')) && isMember[edge.source] !== 1 && isOwned(edge.source)) holder = ownerIn(edge.source)
      }
      if (holder < 0 && isObject[m] !== 1 && isDominated(m)) holder = ownerIn(dominators[m])
      if (holder < 0 && isObject[m] === 1) holder = m
      if (holder < 0) {
        if (++misses > maxMisses) break
        continue
      }
      count++
      holders.set(holder, (holders.get(holder) ?? 0) + 1)
    }
    return { count, holders }
  })
}

/**
 * The objects `objects` own: themselves, and what they alone keep alive (dominate) that they reach
 * by properties, elements and internal fields, the parser a socket keeps under a symbol. Not through
 * a closure: what a callback captures is not its holder's (an interval around a client it never
 * closes does not own the client's socket).
 * @param {HeapAnalysis} last
 * @param {Uint32Array} objects
 * @param {(ordinal: number) => boolean} isDominated  dominatedTest(last, objects)
 * @returns {Uint8Array} 1 per owned ordinal
 */
function markOwned (last, objects, isDominated) {
  const { graph } = last
  const owned = new Uint8Array(graph.nodeCount)
  const context = graph.strings.indexOf('context')
  const { closure, code } = graph.nodeType
  const edge = new EdgeCursor(graph)
  const stack = [...objects]
  for (const o of objects) owned[o] = 1
  while (stack.length > 0) {
    const o = /** @type {number} */ (stack.pop())
    for (edge.references(o); edge.next();) {
      const target = edge.target
      if (owned[target] === 1 || !isDominated(target)) continue
      const kept = edge.is('property') || edge.is('element') || edge.is('hidden') || (edge.is('internal') && edge.nameIndex !== context)
      const type = graph.nodeTypes[target]
      if (!kept || type === closure || type === code) continue
      owned[target] = 1
      stack.push(target)
    }
  }
  return owned
}

/**
 * The lists one after the other.
 * @param {Array<ArrayLike<number>>} lists
 */
function joined (lists) {
  const all = new Uint32Array(lists.reduce((sum, list) => sum + list.length, 0))
  let k = 0
  for (const list of lists) {
    all.set(list, k)
    k += list.length
  }
  return all
}

/**
 * The class of the holders that hold the most.
 * @param {HeapAnalysis} last
 * @param {Map<number, number>} holders  held count per holder ordinal
 * @param {NameResolver} names
 */
function mostCommonClass (last, holders, names) {
  /** @type {Map<string, number>} */
  const byClass = new Map()
  for (const [holder, count] of holders) {
    const name = shownClassName(last, holder, names)
    byClass.set(name, (byClass.get(name) ?? 0) + count)
  }
  let best = ''
  let most = 0
  for (const [name, count] of byClass) {
    if (count > most) {
      best = name
      most = count
    }
  }
  return best
}
