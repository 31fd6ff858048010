// The line a person changes when the growth is made inside a package. A signature places a finding
// where the heap shows the code that holds or adds to the growth: for a schema compiler's cache, a
// logger container or a client left connected, that is the package's own file, or a function of the
// program that merely closes over the package's object (a request handler's first line). The
// allocation stacks tied to the finding say more: the objects were made by the package, called from
// one line of the program. That line becomes the finding's location, and the package's frame stays
// beside it as `inside`.
//
// The rule is the same for every package: code under node_modules/ and Node's internals are not
// the program's. It moves a location only when the evidence agrees:
//   - the stack (the heaviest tied one that does) reaches the program's code, and the frames below
//     that line are the package's the finding names (its location's package, or the package whose
//     object the program holds);
//   - the retainer path's last hop in the program's code (a module's scope, an object or a function
//     of the program) is in a file on that stack, when the path has such a hop at all: a collection
//     that only a package's own module or an open socket holds has none, and the stacks alone speak.

import { packageOf } from '../signatures/library-handle.js'
import { readableScriptName } from '../signatures/source-location.js'
/** @import {GrowingStack, StackFrame} from '../diff/alloc-stacks.js' */
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {Finding, SourceLocation} from '../signatures/finding.js' */

const IN_PACKAGE = /[\\/]node_modules[\\/]/

/**
 * The program's call into a package that made a finding's growth.
 * @typedef {object} UserLine
 * @property {StackFrame} caller   the innermost frame of the program's own code on the stack
 * @property {StackFrame} entry    the frame it called: the package's (or Node's) code
 * @property {string} package      the package's name, or `node` for Node's own code
 */

/**
 * The program's line that called into the package which made a finding's growth, or null when the
 * finding's location is the program's own code already, or the evidence does not reach the program.
 * @param {Finding} finding
 * @param {GrowingStack[]} stacks  the finding's tied stacks, most bytes first, with call lines found
 * @param {{analysis?: HeapAnalysis, cwd: string}} options  analysis: the last snapshot's, to tell
 *   whose code an object or a function on the retainer path is
 * @returns {UserLine | null}
 */
export function findUserLine (finding, stacks, { analysis, cwd }) {
  const wanted = packageBehind(finding)
  if (wanted === undefined) return null
  for (const { frames } of stacks) {
    const at = frames.findIndex((frame) => frame.kind === 'user')
    // The program's code made the objects itself (a constructor of its own): nothing to move.
    if (at <= 0) continue
    const below = frames.slice(0, at)
    const made = wanted === null
      ? below.some((frame) => frame.kind === 'library' || frame.kind === 'node')
      : below.some((frame) => frame.kind === 'library' && packageOf(frame.url) === wanted)
    if (!made) continue
    const caller = frames[at]
    // A function start is no better than where the heap placed a holder of the program's own.
    if (caller.callLine === null && finding.location !== null && !isForeign(finding.location.file)) return null
    const hop = lastProgramHop(finding.path, analysis, cwd)
    if (hop !== null && !frames.slice(at).some((frame) => frame.kind === 'user' && readableScriptName(frame.url, cwd) === hop)) return null
    const entry = below.findLast((frame) => frame.kind !== 'native') ?? below[below.length - 1]
    return { caller, entry, package: entry.kind === 'library' ? packageOf(entry.url) ?? 'node_modules' : 'node' }
  }
  return null
}

/**
 * Where the program's call is, in the code that ran (the sources layer maps it as it maps every
 * finding's location): the call's line and column when its function's text showed them, else
 * where the function starts.
 * @param {StackFrame} caller
 * @param {string} cwd
 * @returns {SourceLocation}
 */
export function callerLocation (caller, cwd) {
  const call = caller.callLine !== null
  return {
    file: readableScriptName(caller.url, cwd),
    line: (call ? /** @type {number} */ (caller.callLine) : caller.lineNumber) + 1,
    column: (call ? caller.callColumn ?? 0 : caller.columnNumber) + 1,
    function: caller.function
  }
}

/**
 * The package a finding's growth is made in: undefined when its location is the program's own and
 * no package's object is involved (nothing to move); null when it is Node's code or no location at
 * all (any package or Node's code below the program's line will do); else the package's name.
 * @param {Finding} finding
 * @returns {string | null | undefined}
 */
function packageBehind ({ location, evidence }) {
  if (location === null || location.file.startsWith('node:')) return null
  const own = packageOf(location.file)
  if (own !== null) return own
  // The location is the program's handle on a package's object (a function that closes over the
  // variable holding it), not a line that adds anything.
  return typeof evidence.library === 'string' && evidence.library !== '' ? evidence.library : undefined
}

/**
 * @param {string} file
 */
function isForeign (file) {
  return file.startsWith('node:') || packageOf(file) !== null
}

/**
 * The file of the last hop of `path` that lies in the program's own code: a module's scope, or an
 * object or a function whose code the heap places in one of the program's scripts. Null when the
 * path never enters the program's code.
 * @param {Step[]} path
 * @param {HeapAnalysis | undefined} analysis
 * @param {string} cwd
 * @returns {string | null}
 */
function lastProgramHop (path, analysis, cwd) {
  for (let i = path.length - 1; i >= 0; i--) {
    const script = path[i].module ?? (analysis === undefined ? null : scriptOf(analysis, path[i].id))
    if (script && !script.startsWith('node:') && !IN_PACKAGE.test(script)) return readableScriptName(script, cwd)
  }
  return null
}

/**
 * The script of an object's constructor or a function's code, when the heap records it.
 * @param {HeapAnalysis} analysis
 * @param {number} id
 * @returns {string | null}
 */
function scriptOf ({ graph, locations }, id) {
  const ordinal = id > 0 ? graph.findOrdinalById(id) : -1
  if (ordinal < 0) return null
  const type = graph.nodeTypes[ordinal]
  if (type !== graph.nodeType.object && type !== graph.nodeType.closure) return null
  return locations.locationOf(ordinal)?.scriptName ?? null
}
