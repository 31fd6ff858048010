const OPEN_PAREN = 0x28
const SLASH = 0x2f
const STAR = 0x2a

/**
 * Where V8 starts a function (its SharedFunctionInfo's start position, checked with
 * %FunctionGetScriptSourcePosition on Node 20): the parameters' `(` of a function or a method,
 * the first token of an arrow (`async` too). That is the position a heap snapshot or an
 * allocation profile gives.
 * @param {any} node  a FunctionDeclaration, FunctionExpression or ArrowFunctionExpression
 * @param {string} text  the script's text
 * @returns {number}
 */
export function v8Start (node, text) {
  if (node.type === 'ArrowFunctionExpression') return node.start
  let at = node.id ? node.id.end : node.start
  const body = node.params.length > 0 ? node.params[0].start : node.body.start
  for (; at < body; at++) {
    const c = text.charCodeAt(at)
    if (c === OPEN_PAREN) return at
    if (c === SLASH && text.charCodeAt(at + 1) === STAR) at = Math.max(at, text.indexOf('*/', at + 2) + 1)
    else if (c === SLASH && text.charCodeAt(at + 1) === SLASH) at = Math.max(at, text.indexOf('\n', at))
    else if (c === SLASH) break
  }
  return node.start
}
