// The names each scope of a script declares, found when first asked for: most scripts' scopes
// are never asked about.
import { PROGRAM } from './function-scopes.js'
/** @import {FunctionScopes} from './function-scopes.js' */

/** Names a CommonJS module's wrapper function declares: its top level uses them undeclared. */
const COMMONJS_NAMES = ['exports', 'require', 'module', '__filename', '__dirname']

export class ScopeBindings {
  #declared
  #scopes
  /** @type {Map<number, Set<string>>} per scope, the names declared in it */
  #bindings = new Map()

  /**
   * @param {Array<{name: string, at: number}>} declared  declared names, and a position inside
   *   the scope each belongs to
   * @param {FunctionScopes} scopes
   */
  constructor (declared, scopes) {
    this.#declared = declared
    this.#scopes = scopes
  }

  /**
   * The names a scope declares (ScriptSyntax#bindings).
   * @param {number} scope a function, or PROGRAM
   * @returns {Set<string>}
   */
  of (scope) {
    if (this.#bindings.size === 0) {
      this.#bindings.set(PROGRAM, new Set(COMMONJS_NAMES))
      for (const { name, at } of this.#declared) {
        const s = this.#scopes.scopeAt(at)
        let names = this.#bindings.get(s)
        if (names === undefined) this.#bindings.set(s, (names = new Set(['arguments'])))
        names.add(name)
      }
    }
    return this.#bindings.get(scope) ?? new Set(scope === PROGRAM ? COMMONJS_NAMES : ['arguments'])
  }
}
