// How a script loads other modules: `import()`, `require(...)`, the variables declared from a
// `require`, and `delete require.cache[...]`.
import { isNamed, propertyName } from './syntax-nodes.js'
/** @import {Node} from 'acorn' */
/** @import {Occurrence} from './occurrences.js' */

/**
 * The `import()` expressions (ScriptSyntax#dynamicImports).
 * @param {Node[]} calls  the script's calls, by start
 * @param {string} text
 * @returns {Array<{offset: number, constant: boolean, specifier: string}>}
 */
export function dynamicImportsIn (calls, text) {
  return calls.filter((node) => node.type === 'ImportExpression').map((node) => {
    const source = /** @type {any} */ (node).source
    const constant = (source.type === 'Literal' && typeof source.value === 'string') || (source.type === 'TemplateLiteral' && source.expressions.length === 0)
    return { offset: node.start, constant, specifier: text.slice(source.start, source.end) }
  })
}

/**
 * The calls of `require(...)` (ScriptSyntax#requireCalls).
 * @param {Node[]} calls  the script's calls, by start
 * @param {string} text
 * @returns {Array<{offset: number, specifier: string}>}
 */
export function requireCallsIn (calls, text) {
  /** @type {Array<{offset: number, specifier: string}>} */
  const found = []
  for (const node of calls) {
    const call = /** @type {any} */ (node)
    if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== 'require' || call.arguments.length === 0) continue
    found.push({ offset: call.start, specifier: text.slice(call.arguments[0].start, call.arguments[0].end) })
  }
  return found
}

/**
 * Offsets of the `delete require.cache[...]` expressions among `deletes`.
 * @param {Node[]} deletes  the script's `delete` expressions
 * @returns {number[]}
 */
export function requireCacheDeletesIn (deletes) {
  return deletes.filter((node) => {
    const target = /** @type {any} */ (node).argument
    return target.type === 'MemberExpression' && target.object.type === 'MemberExpression' && isNamed(target.object.object, 'require') && propertyName(target.object) === 'cache'
  }).map((node) => node.start).sort((a, b) => a - b)
}

/**
 * The specifier a variable is declared from (ScriptSyntax#requiredAs), or null.
 * @param {Occurrence[]} occurrences  of the variable
 * @returns {string | null}
 */
export function requiredSpecifier (occurrences) {
  for (const { node, parent } of occurrences) {
    const declarator = /** @type {any} */ (parent)
    if (declarator?.type !== 'VariableDeclarator' || declarator.id !== node || declarator.init?.type !== 'CallExpression') continue
    let call = declarator.init
    if (isNamed(call.callee, '__importDefault') || isNamed(call.callee, '__importStar')) call = call.arguments[0]
    if (call?.type !== 'CallExpression' || !isNamed(call.callee, 'require')) continue
    const specifier = call.arguments[0]
    if (specifier?.type === 'Literal' && typeof specifier.value === 'string') return specifier.value
  }
  return null
}
