/** @import {Step} from '../analysis/retainer-paths.js' */

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
function edgeText (step) {
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
