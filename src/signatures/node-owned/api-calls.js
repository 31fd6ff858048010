// The program's calls of a Node API that makes records Node keeps (performance.mark()), found in
// the text of the program's scripts: such records hold nothing of the program's that the heap could
// place (a mark holds its name and a copy of its detail), so the line that makes them is read from
// the code instead.

import { PROGRAM, scriptSyntax } from '../../syntax/script-syntax.js'
import { packageOf } from '../library-handle.js'
import { scriptFunctions, scriptText, siteAt } from '../script-functions.js'
/** @import {HeapAnalysis} from '../../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../../analysis/shown-names.js' */
/** @import {SourceLocation} from '../finding.js' */

/**
 * The program's call of `receiver.method(...)` (any chain ending in `receiver`, as
 * `perf_hooks.performance.mark(`), the first one inside a function when there are several (work
 * done per request runs in one; a call at the top of a module runs once), or null when its
 * scripts have none. Scripts of Node and of packages are not searched.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {string} receiver  `performance`
 * @param {string} method    `mark`
 * @param {string} cwd
 * @param {NameResolver} names  for the scripts' whole texts
 * @returns {{location: SourceLocation, calls: number} | null}  calls: how many the program has
 */
export function programApiCall (analysis, receiver, method, cwd, names) {
  const { locations } = analysis
  const wanted = (/** @type {number} */ scriptId) => {
    const name = locations.scriptName(scriptId)
    return name !== null && name !== '' && !name.startsWith('node:') && packageOf(name) === null
  }
  /** @type {{location: SourceLocation, inFunction: boolean} | null} */
  let best = null
  let calls = 0
  for (const [scriptId, functions] of scriptFunctions(analysis, wanted)) {
    const text = scriptText(analysis, functions, names)
    if (text === null || !text.includes(method)) continue
    const syntax = scriptSyntax(text)
    for (const call of syntax.methodCallsIn(0, text.length, new Set([method]))) {
      // `performance.mark(` or `perf_hooks.performance.mark(`: the receiver's last name.
      const on = text.slice(call.receiver.start, call.receiver.end)
      if (on !== receiver && !on.endsWith(`.${receiver}`)) continue
      calls++
      const inFunction = syntax.scopeAt(call.at) !== PROGRAM
      if (best === null || (inFunction && !best.inFunction)) best = { location: siteAt(analysis, scriptId, syntax, functions, call.at, cwd), inFunction }
    }
  }
  return best === null ? null : { location: best.location, calls }
}
