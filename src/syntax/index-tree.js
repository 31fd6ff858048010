// One walk of a script's tree (acorn-walk, which visits identifiers only where they are
// variables, never property names) indexes what the questions about the script need:
//
//   scopes     the functions, sorted by where V8 starts them: the parameters' `(`, or an arrow's
//              lone parameter (that is the position a heap snapshot or an allocation profile gives)
//   names      each variable occurrence with its parent and grandparent node, in text order
//   members    each `<object>.name` read, with its parent and grandparent
//   calls      calls, `new` and `import()`, with their parents, in text order
//   tries      try statements, in text order
//   branches   code that runs only when a condition holds: an if's or a ternary's branches, the
//              right side of && ?? ||, a switch case; in text order

import { fullAncestor } from 'acorn-walk'
import { FunctionScopes } from './function-scopes.js'
import { Occurrences } from './occurrences.js'
import { propertyName } from './syntax-nodes.js'
import { v8Start } from './v8-start.js'
/** @import {Node} from 'acorn' */

/**
 * @typedef {object} TreeIndex
 * @property {FunctionScopes} scopes
 * @property {Occurrences} names     variable occurrences (Identifier nodes), in text order
 * @property {Occurrences} members   member expressions with a written-out property name
 * @property {Node[]} calls          CallExpression, NewExpression and ImportExpression nodes, by start
 * @property {Array<Node | undefined>} callParents  the parent of each of `calls`
 * @property {Node[]} deletes        `delete` expressions
 * @property {Node[]} tries          try statements, by start
 * @property {Node[]} branches       conditional branches, by start
 * @property {Array<{name: string, at: number}>} declared  declared names, and a position inside
 *   the scope each belongs to
 */

/**
 * The index of a script's tree; with no tree (a text no parser reads), an empty one.
 * @param {Node | null} program
 * @param {string} text
 * @returns {TreeIndex}
 */
export function indexTree (program, text) {
  /** @type {Node[]} */
  const functions = []
  /** @type {Map<number, Node>} */
  const classes = new Map()
  /** @type {Array<{node: Node, parent: Node | undefined}>} */
  const calls = []
  const names = new Occurrences((node) => node.name)
  const members = new Occurrences(propertyName)
  /** @type {Node[]} */
  const deletes = []
  /** @type {Node[]} */
  const tries = []
  /** @type {Node[]} */
  const branches = []
  /** @type {Array<{name: string, at: number}>} */
  const declared = []

  /**
   * @param {any} node an Identifier
   * @param {Node[]} ancestors  outermost first, the node last
   * @param {boolean} pattern   whether it was visited as a pattern (a binding or an assignment target)
   */
  const addName = (node, ancestors, pattern) => {
    const declaration = pattern ? declarationOf(node, ancestors) : null
    names.add(node, ancestors, declaration !== null)
    // A function expression's own name is seen only inside it; a declaration's in the scope around.
    if (declaration !== null) declared.push({ name: node.name, at: declaration.type === 'FunctionExpression' ? v8Start(declaration, text) : node.start })
  }

  if (program !== null) {
    fullAncestor(program, (node, _, ancestors, type) => {
      // A node is called back once, as the kind it was last visited as: an identifier in a
      // pattern as 'VariablePattern', a function as 'Function'.
      switch (node.type) {
        case 'Identifier':
          addName(node, ancestors, type === 'VariablePattern')
          break
        case 'FunctionDeclaration':
        case 'FunctionExpression':
        case 'ArrowFunctionExpression':
          functions.push(node)
          break
        case 'ClassDeclaration':
        case 'ClassExpression':
          classes.set(node.start, node)
          break
        case 'MemberExpression':
          if (!(/** @type {any} */ (node).computed)) members.add(node, ancestors, false)
          break
        case 'CallExpression':
        case 'NewExpression':
        case 'ImportExpression':
          calls.push({ node, parent: ancestors[ancestors.length - 2] })
          break
        case 'UnaryExpression':
          if (/** @type {any} */ (node).operator === 'delete') deletes.push(node)
          break
        case 'TryStatement':
          tries.push(node)
          break
        case 'IfStatement':
        case 'ConditionalExpression': {
          const { consequent, alternate } = /** @type {any} */ (node)
          branches.push(consequent)
          if (alternate) branches.push(alternate)
          break
        }
        case 'LogicalExpression':
          branches.push(/** @type {any} */ (node).right)
          break
        case 'SwitchCase':
          branches.push(node)
          break
        case 'ImportDeclaration':
          for (const specifier of /** @type {any} */ (node).specifiers) {
            addName(specifier.local, [...ancestors, specifier, specifier.local], true)
          }
          break
        case 'ExportNamedDeclaration':
          if (/** @type {any} */ (node).source) break
          for (const specifier of /** @type {any} */ (node).specifiers) {
            if (specifier.local.type === 'Identifier') addName(specifier.local, [...ancestors, specifier, specifier.local], false)
          }
          break
      }
    })
  }
  calls.sort((a, b) => a.node.start - b.node.start)
  names.sortByStart()
  tries.sort((a, b) => a.start - b.start)
  branches.sort((a, b) => a.start - b.start)
  return {
    scopes: new FunctionScopes(functions, functions.map((node) => v8Start(node, text)), classes, text.length),
    names,
    members,
    calls: calls.map((call) => call.node),
    callParents: calls.map((call) => call.parent),
    deletes,
    tries,
    branches,
    declared
  }
}

/**
 * The function, class, catch clause or variable declarator an identifier declares a name of
 * (through destructuring patterns), or null when it is no declaration (a read, an assignment).
 * @param {any} node
 * @param {Node[]} ancestors outermost first, the node last
 * @returns {Node | null}
 */
function declarationOf (node, ancestors) {
  let child = node
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const up = /** @type {any} */ (ancestors[i])
    switch (up.type) {
      case 'ObjectPattern':
      case 'ArrayPattern':
      case 'RestElement':
        break
      case 'AssignmentPattern':
        if (up.left !== child) return null
        break
      case 'Property':
        if (up.value !== child) return null
        break
      case 'VariableDeclarator':
        return up.id === child ? up : null
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
        return up.id === child || up.params.includes(child) ? up : null
      case 'ClassDeclaration':
      case 'ClassExpression':
        return up.id === child ? up : null
      case 'CatchClause':
        return up.param === child ? up : null
      case 'ImportSpecifier':
      case 'ImportDefaultSpecifier':
      case 'ImportNamespaceSpecifier':
        return up.local === child ? up : null
      default:
        return null
    }
    child = up
  }
  return null
}
