// Who made the growth: the allocation profiles the agent saves beside each snapshot (V8's sampling
// heap profiler, DevTools' `.heapprofile` format) hold the JS stack of about one allocation per
// sampling interval, for the sampled objects still alive when the profile was read. A sample's
// `ordinal` is unique within one sampling run, so a sample of the last profile that the first
// one lacks is an object allocated after the first snapshot and alive at the last: the sampled
// counterpart of the diff's new survivors. Stacks are summed from those samples, kept when they
// grew in every step, and tied to the findings by what both sides know: the classes a finding
// holds (a constructor frame of that name), its source location (a frame in that function or
// file), and the module whose variable holds the owner. V8's samples name no class, so a tie is
// a match of places, never of objects; each tie says what it rests on.
//
// V8 keys a profile node by function, not by line: a frame's line is where its function starts,
// and a function inlined by the optimizing compiler is counted in its caller. The calling line in
// a frame is the first call of the next frame's function in its function's syntax tree.

import { scriptSyntax } from '../syntax/script-syntax.js'

/**
 * One node of a sampling heap profile (Chrome DevTools protocol, HeapProfiler.SamplingHeapProfileNode).
 * @typedef {object} ProfileNode
 * @property {{functionName: string, url: string, lineNumber: number, columnNumber: number, scriptId?: string}} callFrame
 *   lineNumber and columnNumber are 0-based, -1 when unknown (native code)
 * @property {number} selfSize
 * @property {number} id
 * @property {ProfileNode[]} children
 */

/**
 * @typedef {object} SamplingProfile
 * @property {ProfileNode} head
 * @property {Array<{size: number, nodeId: number, ordinal: number}>} samples  size: bytes the
 *   sample stands for (V8 scales each sample by its chance of being taken)
 */

/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */

/**
 * A frame of an allocation stack, as V8 names it (0-based positions of the function's start).
 * @typedef {object} StackFrame
 * @property {string} function
 * @property {string} url            '' for native code
 * @property {number} lineNumber     0-based, -1 when unknown
 * @property {number} columnNumber   0-based, -1 when unknown
 * @property {'user' | 'library' | 'node' | 'native'} kind  library: under node_modules
 * @property {number | null} endLine   0-based line where the function ends, from its text; null when unknown
 * @property {number | null} callLine  0-based line in this function that calls the frame below it
 *   (or constructs a class the finding holds), found in the function's text; null when not found
 * @property {number | null} [callColumn]  0-based column of that call on its line (where a source
 *   map finds the statement: a minified bundle is one line)
 */

/**
 * A stack whose live sampled bytes grew across the series.
 * @typedef {object} GrowingStack
 * @property {StackFrame[]} frames   the allocating frame first, then its callers
 * @property {number} bytes          sampled bytes allocated after the first snapshot, alive at the last
 * @property {number} samples
 * @property {number[]} steps        per step between snapshots, sampled bytes allocated in it and alive at the last
 * @property {number} [callers]      how many stacks of the profile (the same site reached through
 *   different callers) the samples were summed from; `frames` are the heaviest one's
 */

/**
 * What a finding says that a stack can be matched against.
 * @typedef {object} TieTarget
 * @property {string[]} classes    class names of the objects it holds (growth row, evidence)
 * @property {{file: string, line: number, function: string} | null} location  line 1-based; file
 *   as `fileOf` names a frame's script
 * @property {string | null} module  the script (as V8 names it) whose module variable holds the owner
 * @property {string[]} [classScripts]  the scripts (as V8 names them) whose constructors made objects
 *   of those classes: they still count when the optimizing compiler inlined the constructor
 */

/**
 * @typedef {object} AllocationTie
 * @property {GrowingStack[]} stacks  tied stacks, most bytes first
 * @property {number} bytes           their sampled bytes
 * @property {number} samples
 * @property {string[]} basis         what the tie rests on, one phrase per kind of match
 */

/**
 * A frame of an allocation stack as reports show it (the report layer makes them from StackFrames). `line` is the line in the function that
 * calls the frame below (or constructs the class) when the script's text showed it
 * (`callLine` true), else the line where the function starts.
 * @typedef {object} FrameLocation
 * @property {string} file
 * @property {number} line         1-based
 * @property {number} column       1-based; the function's start column when `callLine` is false, else 1
 * @property {string} function     '' when anonymous
 * @property {'user' | 'library' | 'node' | 'native'} kind
 * @property {boolean} callLine
 * @property {string} [generatedFunction]  the function's name in the code that ran, when a minifier
 *   renamed it (`function` is then the name the script's source map gives)
 * @property {{file: string, line: number, column: number}} [generated]  where the code that ran is, when
 *   the frame was mapped through a source map (file, line and column are then the original's)
 * @property {{file: string, line: number, column: number, snippet: string | null}} [original]
 */

/**
 * @typedef {object} AllocationStack
 * @property {FrameLocation[]} frames  the allocating frame first, then its callers
 * @property {number} bytes            sampled bytes allocated after the first snapshot, alive at the last
 * @property {number} samples
 * @property {number[]} steps          per step between snapshots
 * @property {number} callers          how many different callers of the site (router layers,
 *   routes, wrappers) the samples came through; `frames` shows the one with the most bytes
 */

/**
 * "Allocated at" of one finding: the stacks of growing allocation samples tied to it.
 * @typedef {object} AllocatedAt
 * @property {FrameLocation | null} site  the first frame of the user's own code (not node_modules,
 *   not node: internals) on the largest tied stack past the constructors of the classes the
 *   finding holds, or the stack's first frame when it has none
 * @property {number} bytes     sampled bytes of the tied stacks (an estimate: one sample stands for
 *   about one sampling interval of allocation)
 * @property {number} samples
 * @property {string[]} basis   what the tie rests on (V8's samples name no class)
 * @property {AllocationStack[]} stacks  most bytes first
 */

/**
 * The allocation stacks of a diff: the profiles read and the stacks whose live samples grew.
 * @typedef {object} AllocationsReport
 * @property {string[]} profiles     the profile files, oldest first
 * @property {number | null} intervalBytes  the sampling interval, from the sidecar
 * @property {AllocationStack[]} growing  stacks whose live samples grew, most bytes first
 */

/** Samples a stack needs, over the series, to count as growing: one or two are chance. */
export const MIN_GROWING_SAMPLES = 3

/**
 * Stacks whose live samples grew across the series (profiles oldest first, all from one sampling
 * run). With three profiles a stack must have samples from each step. Most bytes first.
 *
 * A stack is one allocation site: its frames from the allocation up to the first of the user's own
 * code. What called that frame (a framework's router layers, `next()`, anonymous wrappers, a
 * different route to the same helper) is no part of the site: V8 keys a profile node by the whole
 * stack, and those callers change from request to request, and over minutes as the optimizing
 * compiler inlines them, which splits one site's samples over many nodes, none of which grows in
 * every step. So samples are summed per site; the frames shown are those of the site's heaviest
 * node, and `callers` says how many nodes the site's samples came from. A stack with no frame of
 * the user's code is its own site.
 * @param {SamplingProfile[]} profiles  two or three
 * @param {{minSamples?: number}} [options]
 * @returns {GrowingStack[]}
 */
export function findGrowingStacks (profiles, { minSamples = MIN_GROWING_SAMPLES } = {}) {
  const last = profiles[profiles.length - 1]
  /** @type {Set<number>[]} */
  const earlier = profiles.slice(0, -1).map((profile) => new Set(profile.samples.map((sample) => sample.ordinal)))
  const stepCount = profiles.length - 1
  /** @type {Map<number, {bytes: number, samples: number, steps: number[]}>} */
  const byNode = new Map()
  for (const sample of last.samples) {
    if (earlier[0].has(sample.ordinal)) continue
    // The step it was taken in: after snapshot k's profile lacks it, before k+1's has it.
    let step = stepCount - 1
    for (let k = 1; k < earlier.length; k++) {
      if (earlier[k].has(sample.ordinal)) {
        step = k - 1
        break
      }
    }
    let entry = byNode.get(sample.nodeId)
    if (entry === undefined) {
      entry = { bytes: 0, samples: 0, steps: new Array(stepCount).fill(0) }
      byNode.set(sample.nodeId, entry)
    }
    entry.bytes += sample.size
    entry.samples++
    entry.steps[step] += sample.size
  }
  const parents = stackFrames(last.head)
  /** @type {Map<string, {frames: StackFrame[], heaviest: number, bytes: number, samples: number, steps: number[], callers: number}>} */
  const bySite = new Map()
  for (const [nodeId, entry] of byNode) {
    const frames = parents.get(nodeId)
    if (frames === undefined) continue
    const key = siteKey(frames)
    const site = bySite.get(key)
    if (site === undefined) {
      bySite.set(key, { frames, heaviest: entry.bytes, bytes: entry.bytes, samples: entry.samples, steps: [...entry.steps], callers: 1 })
      continue
    }
    if (entry.bytes > site.heaviest) {
      site.frames = frames
      site.heaviest = entry.bytes
    }
    site.bytes += entry.bytes
    site.samples += entry.samples
    entry.steps.forEach((bytes, step) => { site.steps[step] += bytes })
    site.callers++
  }
  mergeInlinedSites(bySite)
  /** @type {GrowingStack[]} */
  const stacks = []
  for (const { frames, bytes, samples, steps, callers } of bySite.values()) {
    if (samples < minSamples || steps.some((stepBytes) => stepBytes === 0)) continue
    stacks.push({ frames, bytes, samples, steps, callers })
  }
  return stacks.sort((a, b) => b.bytes - a.bytes)
}

/**
 * Sites of a function the optimizing compiler inlined into its caller partway through the series:
 * from then on the profile records the allocation in the caller's frame, so the function's site
 * has samples in the early steps only and the caller's own site, starting at that caller, in the
 * later ones. Neither grows in every step; together they do, and they are one site, the
 * function's. Only sites that do not grow on their own are joined.
 * @param {Map<string, {frames: StackFrame[], heaviest: number, bytes: number, samples: number, steps: number[], callers: number}>} bySite
 */
function mergeInlinedSites (bySite) {
  const grows = (/** @type {number[]} */ steps) => steps.every((bytes) => bytes > 0)
  for (const [key, site] of bySite) {
    if (grows(site.steps)) continue
    const own = site.frames.findIndex((frame) => frame.kind === 'user')
    if (own < 0 || own + 1 >= site.frames.length || site.frames[own + 1].kind !== 'user') continue
    const callerKey = siteKey(site.frames.slice(own + 1))
    const caller = bySite.get(callerKey)
    if (caller === undefined || callerKey === key || grows(caller.steps)) continue
    const steps = site.steps.map((bytes, step) => bytes + caller.steps[step])
    if (!grows(steps)) continue
    site.steps = steps
    site.bytes += caller.bytes
    site.samples += caller.samples
    site.callers += caller.callers
    bySite.delete(callerKey)
  }
}

/**
 * The allocation site of a stack: its frames up to and including the first of the user's own
 * code (all of them when it has none), each by function, script and start.
 * @param {StackFrame[]} frames  allocating frame first
 * @returns {string}
 */
function siteKey (frames) {
  const own = frames.findIndex((frame) => frame.kind === 'user')
  const site = own < 0 ? frames : frames.slice(0, own + 1)
  return JSON.stringify(site.map((frame) => [frame.function, frame.url, frame.lineNumber, frame.columnNumber]))
}

/**
 * Each node's stack, allocating frame first, without V8's unnamed root entries.
 * @param {ProfileNode} head
 * @returns {Map<number, StackFrame[]>}
 */
function stackFrames (head) {
  /** @type {Map<number, StackFrame[]>} */
  const stacks = new Map()
  /** @type {Array<{node: ProfileNode, below: StackFrame[]}>} */
  const pending = [{ node: head, below: [] }]
  while (pending.length > 0) {
    const { node, below } = /** @type {{node: ProfileNode, below: StackFrame[]}} */ (pending.pop())
    const { functionName, url, lineNumber, columnNumber } = node.callFrame
    const isRoot = (url === '' && functionName === '') || functionName === '(root)'
    const frames = isRoot ? below : [frameOf(functionName, url, lineNumber, columnNumber), ...below]
    stacks.set(node.id, frames)
    for (const child of node.children) pending.push({ node: child, below: frames })
  }
  return stacks
}

/**
 * @param {string} functionName
 * @param {string} url
 * @param {number} lineNumber
 * @param {number} columnNumber
 * @returns {StackFrame}
 */
function frameOf (functionName, url, lineNumber, columnNumber) {
  const kind = url === '' ? 'native' : url.startsWith('node:') ? 'node' : /[\\/]node_modules[\\/]/.test(url) ? 'library' : 'user'
  return { function: functionName, url, lineNumber, columnNumber, kind, endLine: null, callLine: null }
}

/**
 * Ties growing stacks to findings. A stack goes to the findings it matches best; a finding whose
 * stacks match only by file is tied too, and its basis says so.
 * Matches, strongest first: a frame is a constructor of a class the finding holds; a frame is the
 * finding's own function (same file, same name or starting on its line); a frame is in the module
 * that holds the owner; a frame is in the finding's file. Only frames up to the first of the
 * user's own code count; each kind counts once, at the frame nearest the allocation, and less
 * the further from it.
 * @param {GrowingStack[]} stacks
 * @param {TieTarget[]} targets  one per finding
 * @param {(url: string) => string} [fileOf]  a frame's script as the targets' locations name files
 * @returns {Array<AllocationTie | null>}  per target
 */
export function tieStacks (stacks, targets, fileOf = (url) => url) {
  /** @type {Array<{stacks: GrowingStack[], basis: Set<string>}>} */
  const tied = targets.map(() => ({ stacks: [], basis: new Set() }))
  for (const stack of stacks) {
    let best = 0
    /** @type {Array<{target: number, reasons: string[]}>} */
    let winners = []
    for (const [index, target] of targets.entries()) {
      const { score, reasons } = matchStack(stack, target, fileOf)
      if (score === 0 || score < best) continue
      if (score > best) winners = []
      best = score
      winners.push({ target: index, reasons })
    }
    for (const { target, reasons } of winners) {
      tied[target].stacks.push(stack)
      for (const reason of reasons) tied[target].basis.add(reason)
    }
  }
  return tied.map(({ stacks: mine, basis }) => {
    if (mine.length === 0) return null
    return {
      stacks: mine,
      bytes: mine.reduce((sum, stack) => sum + stack.bytes, 0),
      samples: mine.reduce((sum, stack) => sum + stack.samples, 0),
      basis: [...basis]
    }
  })
}

const SCORE_CLASS = 8
const SCORE_FUNCTION = 4
const SCORE_CLASS_SCRIPT = 4
const SCORE_MODULE = 2
const SCORE_FILE = 1

/**
 * @param {GrowingStack} stack
 * @param {TieTarget} target
 * @param {(url: string) => string} fileOf
 * @returns {{score: number, reasons: string[]}}
 */
function matchStack (stack, target, fileOf) {
  const classes = new Set(target.classes.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name)))
  /** @type {Map<string, number>} the best points of each kind of match */
  const best = new Map()
  // Only the frames from the allocation up to the first of the user's own code: the callers above
  // it (the request's dispatch, the event loop) are shared by every stack of a request.
  const own = stack.frames.findIndex((frame) => frame.kind === 'user')
  const frames = own < 0 ? stack.frames : stack.frames.slice(0, own + 1)
  const add = (/** @type {number} */ points, /** @type {number} */ depth, /** @type {string} */ reason) => {
    // A match near the allocating frame says more than one among the callers; the user's frame
    // that called into a library is shared by everything that call made, so it says least.
    const weighted = (points / (1 + depth)) * (depth > 0 && depth === own ? 0.25 : 1)
    if (weighted > (best.get(reason) ?? 0)) best.set(reason, weighted)
  }
  const location = target.location
  for (const [depth, frame] of frames.entries()) {
    if (frame.url === '') continue
    if (classes.has(frame.function)) add(SCORE_CLASS, depth, `constructor ${frame.function}, a class the finding holds, is on the stack`)
    const file = fileOf(frame.url)
    if (location !== null && file === location.file) {
      // The finding's function, or the allocating function holding its location (a closure made there).
      const inside = depth === 0 && frame.endLine !== null && location.line - 1 >= frame.lineNumber && location.line - 1 <= frame.endLine
      const same = (location.function !== '' && frame.function === location.function) || frame.lineNumber + 1 === location.line || inside
      if (same) add(SCORE_FUNCTION, depth, 'the finding\'s function, or the allocating function holding its location, is on the stack')
      else add(SCORE_FILE, depth, 'the finding\'s file is on the stack')
    }
    if (target.classScripts?.includes(frame.url)) add(SCORE_CLASS_SCRIPT, depth, 'the script that defines a class the finding holds is on the stack')
    if (target.module !== null && frame.url === target.module) add(SCORE_MODULE, depth, 'the module whose variable holds the growth is on the stack')
  }
  let score = 0
  for (const points of best.values()) score += points
  return { score, reasons: [...best.keys()].sort((a, b) => /** @type {number} */ (best.get(b)) - /** @type {number} */ (best.get(a))) }
}

/**
 * Finds, in each user or library frame whose script text is known, the line that calls the frame
 * below it (for the allocating frame: the line that constructs one of `classes`). Frames are
 * changed in place.
 * @param {GrowingStack} stack
 * @param {(url: string) => string | null} sourceOf  a script's text, or null when unknown
 * @param {string[]} classes
 */
export function findCallLines (stack, sourceOf, classes) {
  const { frames } = stack
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]
    if ((frame.kind !== 'user' && frame.kind !== 'library') || frame.lineNumber < 0) continue
    const text = sourceOf(frame.url)
    if (text === null) continue
    const callee = i > 0 ? frames[i - 1].function : ''
    const names = i > 0 ? (callee === '' ? [] : [callee]) : classes.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))
    if (names.length === 0) continue
    const syntax = scriptSyntax(text)
    const start = syntax.offsetOf(frame.lineNumber, frame.columnNumber)
    const at = start < 0 ? -1 : syntax.callIn(start, names, i === 0)
    const call = at < 0 ? null : syntax.positionOf(at)
    frame.callLine = call?.line ?? null
    frame.callColumn = call?.column ?? null
  }
}

/**
 * The script of each class's constructor, from the objects of that class in a snapshot (objects
 * only: a closure's location is its own function's). Classes without a script (built-ins, plain
 * objects) are left out.
 * @param {HeapAnalysis} analysis
 * @param {Set<string>} names
 * @returns {Map<string, string>} class name -> script URL
 */
export function classScripts (analysis, names) {
  const { graph, locations, classOf, classes } = analysis
  /** @type {Map<string, string>} */
  const found = new Map()
  /** @type {Set<number>} class indexes still to look for */
  const wanted = new Set()
  classes.names.forEach((name, index) => { if (names.has(name)) wanted.add(index) })
  const objectType = graph.nodeType.object
  for (let ordinal = 0; ordinal < graph.nodeCount && wanted.size > 0; ordinal++) {
    const index = classOf[ordinal]
    if (!wanted.has(index) || graph.nodeTypes[ordinal] !== objectType) continue
    const script = locations.locationOf(ordinal)?.scriptName
    if (!script) continue
    found.set(classes.names[index], script)
    wanted.delete(index)
  }
  return found
}

/**
 * Sets `endLine` on the user and library frames whose script text is known. Frames are changed
 * in place (the stacks come from findGrowingStacks, fresh for each diff).
 * @param {GrowingStack[]} stacks
 * @param {(url: string) => string | null} sourceOf
 */
export function findFunctionEnds (stacks, sourceOf) {
  for (const { frames } of stacks) {
    for (const frame of frames) {
      if ((frame.kind !== 'user' && frame.kind !== 'library') || frame.lineNumber < 0) continue
      const text = sourceOf(frame.url)
      if (text === null) continue
      const syntax = scriptSyntax(text)
      const start = syntax.offsetOf(frame.lineNumber, frame.columnNumber)
      if (start >= 0) frame.endLine = syntax.positionOf(syntax.codeEnd(start)).line
    }
  }
}
