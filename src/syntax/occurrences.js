// Where names occur in a script: each variable occurrence, or each `<object>.name` read, with its
// parent and grandparent node. Flat lists, searched per question: a report asks about a few
// names, and a bundle has hundreds of thousands of identifiers that a Map entry or an object each
// would cost more to make than the questions cost to answer.
import { lowerBound } from './syntax-nodes.js'
/** @import {Node} from 'acorn' */

/**
 * An occurrence of a variable, or of a property read (`<object>.name`).
 * @typedef {object} Occurrence
 * @property {Node} node      the Identifier, or the MemberExpression ending in the property
 * @property {Node | undefined} parent
 * @property {Node | undefined} grand
 * @property {boolean} declares  whether it declares the variable (a binding, a parameter, an import)
 */

export class Occurrences {
  #nameOf
  /** @type {Node[]} */
  #nodes = []
  /** @type {Array<Node | undefined>} */
  #parents = []
  /** @type {Array<Node | undefined>} */
  #grands = []
  /** @type {boolean[]} */
  #declares = []

  /**
   * @param {(node: any) => string | null} nameOf  the name a node of the list stands for
   */
  constructor (nameOf) {
    this.#nameOf = nameOf
  }

  /**
   * @param {Node} node
   * @param {Node[]} ancestors  outermost first, the node last
   * @param {boolean} declares
   */
  add (node, ancestors, declares) {
    this.#nodes.push(node)
    this.#parents.push(ancestors[ancestors.length - 2])
    this.#grands.push(ancestors[ancestors.length - 3])
    this.#declares.push(declares)
  }

  /** Puts the occurrences in text order, when the walk did not visit them so. */
  sortByStart () {
    const nodes = this.#nodes
    let sorted = true
    for (let i = 1; i < nodes.length && sorted; i++) sorted = nodes[i - 1].start <= nodes[i].start
    if (sorted) return
    const order = nodes.map((_, i) => i).sort((a, b) => nodes[a].start - nodes[b].start)
    const parents = this.#parents
    const grands = this.#grands
    const declares = this.#declares
    this.#nodes = order.map((i) => nodes[i])
    this.#parents = order.map((i) => parents[i])
    this.#grands = order.map((i) => grands[i])
    this.#declares = order.map((i) => declares[i])
  }

  /**
   * The occurrences of `name`, in the list's order.
   * @param {string} name
   * @returns {Occurrence[]}
   */
  named (name) {
    /** @type {Occurrence[]} */
    const found = []
    const nodes = this.#nodes
    for (let i = 0; i < nodes.length; i++) {
      if (this.#nameOf(nodes[i]) === name) found.push({ node: nodes[i], parent: this.#parents[i], grand: this.#grands[i], declares: this.#declares[i] })
    }
    return found
  }

  /**
   * The name of the occurrence that starts at `offset`, or null; the list must be in text order.
   * @param {number} offset
   * @returns {string | null}
   */
  nameAt (offset) {
    const nodes = this.#nodes
    const i = lowerBound(nodes, offset)
    return i < nodes.length && nodes[i].start === offset ? this.#nameOf(nodes[i]) : null
  }
}
