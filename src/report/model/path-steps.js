// Retainer paths and their owners, as every part of the report names them: growth rows, findings
// and the inspect report's dominators.
/** @import {Step} from '../../analysis/retainer-paths.js' */
import { optional } from './optional-field.js'

/**
 * One hop of a retainer path from the GC roots.
 * @typedef {object} PathStep
 * @property {string} edge      property, variable or internal name, or the index as text
 * @property {string} edgeType  `property`, `context`, `element`, `internal`, `hidden`, `shortcut`, `elided`
 * @property {string} node      class name of the node the edge leads to, as the class table names it
 * @property {string} nodeType  `object`, `closure`, ... (`elided` for the step standing for a long middle)
 * @property {number} id        V8 id of that node (0 for an elided step)
 * @property {string} [generatedEdge]  a variable a minifier renamed: its name in the code that ran
 * @property {string} [generatedNode]  a class a minifier renamed: its name in the code that ran
 * @property {string} [module]  the node is the module scope of this script (a URL as V8 names it)
 * @property {string} [originalModule]  with `module`: the source file that script was compiled from
 */

/**
 * @typedef {object} Owner
 * @property {number} id
 * @property {string} name
 * @property {string} type
 * @property {string} [generatedName]  the class's name in the code that ran, when a minifier renamed it
 */

/**
 * @param {Step} step
 * @returns {PathStep}
 */
export function pathStepModel (step) {
  return {
    edge: step.edge,
    edgeType: step.edgeType,
    node: step.node,
    nodeType: step.nodeType,
    id: step.id,
    ...optional('generatedEdge', step.generatedEdge),
    ...optional('generatedNode', step.generatedNode),
    ...optional('module', step.module),
    ...optional('originalModule', step.originalModule)
  }
}

/**
 * @param {{id: number, name: string, type: string, generatedName?: string}} owner
 * @returns {Owner}
 */
export function ownerModel (owner) {
  return { id: owner.id, name: owner.name, type: owner.type, ...optional('generatedName', owner.generatedName) }
}
