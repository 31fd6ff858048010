import { readableScriptName } from '../signatures/source-location.js'
/** @import {PathStep as Step} from './model/path-steps.js' */

/**
 * A retainer path in DevTools' edge notation (heapsnapshot-format.md 4.8), one line:
 * `(GC roots) → global .cache → Map {table} → (array)`.
 * @param {Step[]} path
 * @returns {string}
 */
export function renderPath (path) {
  if (path.length === 0) return '(not reachable from the roots)'
  const parts = ['(root)']
  for (const [i, step] of path.entries()) {
    // The root's shortcut to the global object is V8 bookkeeping (named "2"), not a reference.
    if (i === 0 && step.edgeType === 'shortcut') parts.push(`→ ${step.node}`)
    else parts.push(`${edgeText(step)} → ${step.node}`)
  }
  return parts.join(' ')
}

/** @param {Step} step */
export function edgeText (step) {
  switch (step.edgeType) {
    case 'context': return `->${step.edge}`
    case 'element': return `[${step.edge}]`
    case 'weak': return `[[${step.edge}]]`
    case 'property':
    case 'shortcut': return /^[A-Za-z_$][\w$]*$/.test(step.edge) ? `.${step.edge}` : `[${JSON.stringify(step.edge)}]`
    case 'elided': return '…'
    default: return `{${step.edge}}`
  }
}

/** Node types and class names that are engine machinery a person did not write. */
const INTERNAL_NODE_TYPES = new Set(['hidden', 'array', 'code', 'object shape', 'synthetic'])
const INTERNAL_CLASS = /^(?:system \/ |\(system\)|\(array\)|\(object elements\)|\(object properties\)|\(compiled code\)|\(object shape\))/
/** A linked list shows as one hop with a count from this many equal hops in a row. */
const CHAIN = 3
/** A folded path shows at most this many hops whole; a longer one loses its middle (elideMiddle). */
const MAX_HOPS = 16
/** Hops a path that loses its middle keeps after the one it starts from (a module scope, the global). */
const HEAD_HOPS = 1
/** Hops it keeps at the owner's end, more when fewer than NEAR_NAMES of them carry a name. */
const TAIL_HOPS = 10
/** Hops carrying a name (a property or variable of the program) nearest the owner, always kept. */
const NEAR_NAMES = 4

/**
 * One hop of a folded path: `text` as a person reads it (`×N` for a run of equal hops, a linked
 * list), and the path's steps it stands for (several for a run or a fold of engine hops).
 * @typedef {object} FoldedHop
 * @property {string} text     '' for steps the text leaves out (how the runtime reaches a module)
 * @property {boolean} folded  engine hops (or the runtime's way to a module) shown as one
 * @property {Step[]} steps
 */

/**
 * A retainer path as a person reads it (report-example.md): from the last module scope when there
 * is one, `(GC roots) → module src/flags.js → flagStore (FlagStore) → _events → change (Array)`.
 * Engine hops (`{context}`, `{table}`, `{elements}`, `{bound_this}`, system objects) are folded,
 * with `…` and a count where several go in a row; a run of equal hops (a linked list such as a
 * timer list's `_idleNext`) shows once with `×N`. A path still longer than MAX_HOPS hops keeps
 * where it starts and the hops nearest the owner, with every one of the NEAR_NAMES names nearest
 * it, around `… N hops` (elideMiddle). Nothing is dropped without a mark, except the part before
 * the module scope, which is how the runtime reaches the module, not the program. `Object` is
 * left out after a name, and the last step always names its class.
 * @param {Step[]} path as retainerPath returns it (with `readable`, steps carry `module`)
 * @param {{cwd?: string}} [options] cwd: scripts under it are shown relative to it
 * @returns {string}
 */
export function renderFoldedPath (path, { cwd = process.cwd() } = {}) {
  if (path.length === 0) return '(not reachable from the roots)'
  const parts = ['(GC roots)']
  for (const hop of foldPath(path, { cwd })) if (hop.text !== '') parts.push(hop.text)
  return parts.join(' → ')
}

/**
 * The hops renderFoldedPath prints after `(GC roots)`, each with the steps it stands for, so that a
 * reader that can open a fold (the HTML report) shows what it hides. The steps before the module
 * scope come first as a fold with no text (the text leaves them out); a long path's middle is one
 * fold (elideMiddle).
 * @param {Step[]} path
 * @param {{cwd?: string}} [options]
 * @returns {FoldedHop[]}
 */
export function foldPath (path, { cwd = process.cwd() } = {}) {
  /** @type {Array<FoldedHop & {key: string, count: number}>} */
  const hops = []
  let from = 0
  const anchor = path.findLastIndex((step) => step.module !== undefined)
  if (anchor >= 0) {
    if (anchor > 0) hops.push({ text: '', key: '', count: 1, folded: true, steps: path.slice(0, anchor) })
    // A compiled script is named by the source it was compiled from, as locations are.
    const module = path[anchor].originalModule ?? readableScriptName(/** @type {string} */ (path[anchor].module), cwd)
    hops.push({ text: `module ${module}`, key: '', count: 1, folded: false, steps: [path[anchor]] })
    from = anchor + 1
  } else if (path.length > 0 && path[0].edgeType === 'shortcut') {
    // The root's shortcut to the global object.
    hops.push({ text: 'global', key: '', count: 1, folded: false, steps: [path[0]] })
    from = 1
  }
  /** @type {Step[]} */
  let folded = []
  const flush = () => {
    if (folded.length > 1) hops.push({ text: `… ${folded.length} hops`, key: '', count: 1, folded: true, steps: folded })
    else if (folded.length === 1) hops.push({ text: '', key: '', count: 1, folded: true, steps: folded })
    folded = []
  }
  for (let i = from; i < path.length; i++) {
    const step = path[i]
    const last = i === path.length - 1
    if (step.edgeType === 'elided') {
      // The middle of a linked list left out of a path of thousands of steps: still one list.
      const previous = hops.at(-1)
      const next = path[i + 1]
      const count = Number.parseInt(step.node, 10)
      if (folded.length === 0 && previous && previous.key !== '' && next && hopKey(next) === previous.key && Number.isSafeInteger(count)) {
        previous.count += count
        previous.steps.push(step)
        continue
      }
      flush()
      hops.push({ text: `… ${step.node}`, key: '', count: 1, folded: false, steps: [step] })
      continue
    }
    // The root's synthetic children (GC sub-roots such as global handles) are the (GC roots) the
    // text starts with; an embedder's root (`Node / FSEventWrap`, a native handle) is named, since
    // it is what holds what follows.
    if (step.nodeType === 'synthetic') {
      if (!step.node.startsWith('(') && path[i + 1]?.nodeType !== 'synthetic') {
        flush()
        hops.push({ text: step.node, key: '', count: 1, folded: false, steps: [step] })
      } else {
        // Not counted among the engine hops: the text leaves them out.
        const previous = hops.at(-1)
        if (previous && previous.folded && previous.text === '') previous.steps.push(step)
        else hops.push({ text: '', key: '', count: 1, folded: true, steps: [step] })
      }
      continue
    }
    const label = labelOf(step)
    const internalNode = INTERNAL_NODE_TYPES.has(step.nodeType) || INTERNAL_CLASS.test(step.node)
    if (label === null && !last && (internalNode || step.node === 'Object')) {
      // An engine hop: a function's context, a table or backing store, one of their slots.
      folded.push(step)
      continue
    }
    flush()
    if (label === null) {
      // An engine hop to something the program made (a bound receiver, a Map entry): its class.
      hops.push({ text: step.node.startsWith('(') ? step.node : `(${step.node})`, key: '', count: 1, folded: false, steps: [step] })
      continue
    }
    const showClass = last || (step.node !== 'Object' && !internalNode)
    const text = showClass ? `${label} (${step.node})` : label
    const key = hopKey(step)
    const previous = hops.at(-1)
    if (previous && previous.key === key && previous.text === text) {
      previous.count++
      previous.steps.push(step)
    } else {
      hops.push({ text, key, count: 1, folded: false, steps: [step] })
    }
  }
  flush()
  return elideMiddle(hops.flatMap(({ text, key, count, folded, steps }) => {
    const named = key !== '' && NAMED_EDGES.has(steps[0].edgeType)
    if (count >= CHAIN) return [{ text: `${text} ×${count}`, folded, steps, named }]
    return steps.length === count && count > 1 ? steps.map((step) => ({ text, folded, steps: [step], named })) : [{ text, folded, steps, named }]
  }))
}

/** Edges whose name is one the program wrote: a property or a variable, not an index or an engine slot. */
const NAMED_EDGES = new Set(['property', 'context', 'shortcut'])

/**
 * A path of more than MAX_HOPS shown hops without its middle: the hops up to the one it starts
 * from (the module scope, the global) and HEAD_HOPS more, then one fold `… N hops` (N steps), then
 * the last TAIL_HOPS hops, or as many as it takes to keep the NEAR_NAMES hops nearest the owner
 * that carry a name. The middle a path loses is what lies far from both the program's variable it
 * starts at and the names that lead to the owner (a list's links, the runtime's own objects).
 * @param {Array<FoldedHop & {named: boolean}>} hops
 * @returns {FoldedHop[]}
 */
function elideMiddle (hops) {
  const plain = hops.map(({ named, ...hop }) => hop)
  const shown = hops.filter((hop) => hop.text !== '').length
  if (shown <= MAX_HOPS) return plain
  // The head: the hops before the first shown one (how the runtime reaches the module), that one,
  // and HEAD_HOPS more shown hops.
  let head = 0
  for (let seen = 0; head < hops.length && seen <= HEAD_HOPS; head++) if (hops[head].text !== '') seen++
  let tail = hops.length
  for (let kept = 0, names = 0; tail > head && (kept < TAIL_HOPS || names < NEAR_NAMES);) {
    tail--
    if (hops[tail].text !== '') kept++
    if (hops[tail].named) names++
  }
  const middle = plain.slice(head, tail)
  if (middle.filter((hop) => hop.text !== '').length < 2) return plain
  const steps = middle.flatMap((hop) => hop.steps)
  return [...plain.slice(0, head), { text: `… ${steps.length} hops`, folded: true, steps }, ...plain.slice(tail)]
}

/**
 * What tells hops apart in a run of equal ones: the name and the class.
 * @param {Step} step
 */
function hopKey (step) {
  return `${labelOf(step)}|${step.node}`
}

/**
 * What a person calls the hop: the property or variable name, `[i]` for an element; null for an
 * engine-internal hop.
 * @param {Step} step
 * @returns {string | null}
 */
function labelOf (step) {
  switch (step.edgeType) {
    case 'property':
    case 'context':
    case 'shortcut': return /^[A-Za-z_$][\w$]*$/.test(step.edge) ? step.edge : JSON.stringify(step.edge)
    case 'element': return `[${step.edge}]`
    default: return null
  }
}
