// A fix in a package's terms, written at the program's call into the package. A signature knows
// the package's object and the release method the heap shows on its prototype chain, but not
// always the program's line that calls the package: for growth a package makes, the allocation
// stacks find that line later (pipeline/allocated-at.js), and the snippet is written again there,
// with what the program wrote: the object it calls, the key it passes, the variable it assigns.

/** @import {CallParts} from '../syntax/calls-in-code.js' */

/**
 * How to write a fix at the program's call. Not part of the report.
 * @typedef {object} CallFix
 * @property {'key object' | 'distinct keys' | 'made per call'} kind  the package keeps an entry
 *   per key object it is handed, compared by identity (a schema literal made per call); per distinct
 *   key (an id, a URL); or the call makes an object that holds a resource until it is closed
 * @property {string | null} release  the method that takes one entry (or the object) back, as the
 *   heap shows it on the holder's prototype chain (`removeSchema`, `close`)
 */

/**
 * The write or the call that makes something, then the work in a try whose finally releases it:
 * runs however the work ends.
 * @param {string} made
 * @param {string} release
 */
export function everyPathSnippet (made, release) {
  return `${made}\ntry {\n  // ... the work, as before\n} finally {\n  ${release}\n}`
}

/**
 * The snippet of a fix written at the program's call: the call as the program wrote it (its
 * arguments past the key elided), and the package's release call on the same object with the same
 * key, or on what the call made.
 * @param {CallFix} fix
 * @param {CallParts} call  the program's call, found by the allocation stacks
 * @returns {string}
 */
export function callSnippet ({ kind, release }, call) {
  const callee = call.constructs ? `new ${call.name}` : call.receiver === null ? call.name : `${call.receiver}.${call.name}`
  const assigned = call.assignedTo === null ? '' : `const ${call.assignedTo} = `
  const key = call.args[0] ?? 'key'
  if (kind === 'made per call') {
    const made = `${assigned}${callee}(${call.args.join(', ')})`
    const one = call.assignedTo ?? 'made'
    const shared = `${made} // once, at start-up, shared by every call`
    return release === null ? shared : `${shared}\n// or per call: try { /* ... */ } finally { await ${one}.${release}() }`
  }
  if (kind === 'key object') {
    // The key object is made where the call is: make it once, and hand the same one every time.
    const lines = [`// once, at start-up, not per call: ${call.receiver ?? 'it'} keeps an entry per key object`, `${assigned}${callee}(${call.args.join(', ')})`]
    if (release !== null && call.receiver !== null) {
      lines.push(/^[\w$.]+$/.test(key)
        ? `// or, per call, take it out when done: ${call.receiver}.${release}(${key})`
        : `// or, per call: const key = ${key}, pass key, and take it out when done: ${call.receiver}.${release}(key)`)
    }
    return lines.join('\n')
  }
  const made = `${assigned}${callee}(${call.args.length > 1 ? `${key}, /* ... */` : key})`
  return release === null || call.receiver === null ? made : everyPathSnippet(made, `${call.receiver}.${release}(${key})`)
}
