// A script's text as a tree. Scripts come as ES modules, CommonJS, minified bundles, compilers'
// output, or copies the heap snapshot cut at its string limit (1,024 characters by default). acorn
// parses them as a module, else as a script (CommonJS may `return` at its top level), else with
// acorn-loose, which makes a tree of any text: a cut copy's last function then runs to the end of
// the text.

import { parse } from 'acorn'
import { parse as parseLoose } from 'acorn-loose'
/** @import {Node} from 'acorn' */

/**
 * The tree of a text: as a module, else as a script, else loosely; null when none parses it.
 * @param {string} text
 * @returns {{program: Node, how: 'module' | 'script' | 'loose'} | null}
 */
export function parseText (text) {
  try {
    return { program: parse(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true }), how: 'module' }
  } catch {}
  try {
    const options = /** @type {const} */ ({ ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true, allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true })
    return { program: parse(text, options), how: 'script' }
  } catch {}
  try {
    return { program: parseLoose(text, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true }), how: 'loose' }
  } catch {
    return null
  }
}
