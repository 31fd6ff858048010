// The one parse of the user's code. Every question a report asks about a script's text (the
// function around a position, the call at a column, the writes to a variable, a scope's
// bindings) is answered from the script's syntax tree, made here once per text and kept in a
// cache bounded by the total size of the texts, so that the signatures, the allocation stacks
// and the original names never read the same script two different ways.
//
// The tree is read by parse-text.js and indexed by one walk (index-tree.js); each kind of
// question is answered in a module of its own. Nothing here throws into the analysis: a text no
// parser reads answers every question with nothing.

import { LRUCache } from 'lru-cache'
import { callAt, callsOf, methodCallsBetween } from './calls-in-code.js'
import { collectionWrites, writeParts } from './collection-writes.js'
import { entryRemovals } from './entry-removals.js'
import { indexTree } from './index-tree.js'
import { dynamicImportsIn, requireCacheDeletesIn, requireCallsIn, requiredSpecifier } from './module-loads.js'
import { parseText } from './parse-text.js'
import { ScopeBindings } from './scope-bindings.js'
import { lowerBound } from './syntax-nodes.js'
import { lineStarts, positionOf } from './text-positions.js'
import { valueUses } from './value-uses.js'
/** @import {TreeIndex} from './index-tree.js' */
/** @import {CallParts} from './calls-in-code.js' */
/** @import {WriteParts} from './collection-writes.js' */
/** @import {EntryRemoval} from './entry-removals.js' */

export { PROGRAM } from './function-scopes.js'

/**
 * Characters of source whose trees the cache keeps. A tree and its indexes take about 35 bytes
 * per character of the text (measured on a 3.6 MB esbuild bundle of the TypeScript compiler:
 * 123 MB), so this is about 280 MB at most: that bundle twice, or hundreds of ordinary files.
 */
export const SYNTAX_CACHE_CHARS = 8_000_000

/** @type {LRUCache<string, ScriptSyntax>} keyed by the text itself */
const cache = new LRUCache({ maxSize: SYNTAX_CACHE_CHARS, sizeCalculation: (_, text) => Math.max(1, text.length) })

/**
 * The syntax of a script's text, parsed once per text while the cache keeps it.
 * @param {string} text
 * @returns {ScriptSyntax}
 */
export function scriptSyntax (text) {
  let syntax = cache.get(text)
  if (syntax === undefined) {
    syntax = new ScriptSyntax(text)
    cache.set(text, syntax)
  }
  return syntax
}

export class ScriptSyntax {
  /** How the text was read: 'none' when no parser could. */
  how
  text
  /** @type {number[] | null} */
  #lines = null
  /** @type {TreeIndex} */
  #tree
  #bindings
  /** @type {Map<string, import('acorn').Node[]>} where each variable asked of `mentions` occurs, in text order */
  #variableNodes = new Map()

  /**
   * @param {string} text
   */
  constructor (text) {
    this.text = text
    const parsed = parseText(text)
    this.how = parsed === null ? 'none' : parsed.how
    this.#tree = indexTree(parsed === null ? null : parsed.program, text)
    this.#bindings = new ScopeBindings(this.#tree.declared, this.#tree.scopes)
  }

  /** Offsets at which each line starts. */
  get lineStarts () {
    if (this.#lines === null) this.#lines = lineStarts(this.text)
    return this.#lines
  }

  /**
   * The 0-based line and column of an offset.
   * @param {number} offset
   */
  positionOf (offset) {
    return positionOf(this.lineStarts, offset)
  }

  /**
   * The offset of a 0-based line and column, or -1 past the text.
   * @param {number} line
   * @param {number} column
   */
  offsetOf (line, column) {
    const starts = this.lineStarts
    if (line < 0 || line >= starts.length) return -1
    const offset = starts[line] + Math.max(0, column)
    return offset < this.text.length ? offset : -1
  }

  /** How many functions the text has. */
  get functionCount () {
    return this.#tree.scopes.count
  }

  /**
   * Where a function starts (as V8 starts it) and ends.
   * @param {number} f
   * @returns {{start: number, end: number}}
   */
  functionSpan (f) {
    return this.#tree.scopes.span(f)
  }

  /**
   * The innermost function whose span (V8's start to its end) holds `offset`, or PROGRAM.
   * @param {number} offset
   */
  scopeAt (offset) {
    return this.#tree.scopes.scopeAt(offset)
  }

  /**
   * The function V8 starts at exactly `offset` (the outermost, when an arrow's body is another
   * arrow that starts there too), or -1.
   * @param {number} offset
   */
  functionAt (offset) {
    return this.#tree.scopes.functionAt(offset)
  }

  /**
   * The function a function is declared in, or PROGRAM.
   * @param {number} f
   */
  parentOf (f) {
    return this.#tree.scopes.parentOf(f)
  }

  /**
   * The innermost scope around both.
   * @param {number} a
   * @param {number} b
   */
  commonScope (a, b) {
    return this.#tree.scopes.commonScope(a, b)
  }

  /**
   * Where the code that starts at `offset` (a position V8 gives for a function or a class) ends:
   * that function's or class's end; for a position inside one, the end of the innermost function
   * around it; else the text's end.
   * @param {number} offset
   */
  codeEnd (offset) {
    return this.#tree.scopes.codeEnd(offset)
  }

  /**
   * The variable whose name starts at `offset` (no property name, no text in a string or a
   * comment), or null.
   * @param {number} offset
   */
  nameAt (offset) {
    return this.#tree.names.nameAt(offset)
  }

  /**
   * The names a scope declares: its variables, functions, classes, parameters and imports (in
   * its blocks too: V8 keeps a captured block variable in the function's Context); for the top
   * level, also what a CommonJS wrapper declares. A function's scope has `arguments`.
   * @param {number} scope a function, or PROGRAM
   * @returns {Set<string>}
   */
  bindings (scope) {
    return this.#bindings.of(scope)
  }

  /**
   * Offsets (ascending) of the statements that add entries to collection `name`: calls of
   * `.push(` `.unshift(` `.set(` `.add(` `.splice(` on it, stores through a key (`name[key] =`,
   * `??=`, `||=`, `&&=`) and `Object.assign(name, ...)` (at `Object`). For a variable, the offset
   * is where its name starts; for a property (`member`), where the expression holding it starts
   * (`this` in `this.#byUrl.set(`). Shadowed variables of the same name are not told apart.
   * @param {string} name a variable name, or a property name (`#field` for a private one)
   * @param {boolean} member whether `name` is a property, read as `<object>.name`
   * @returns {number[]}
   */
  writesTo (name, member) {
    return collectionWrites(this.#occurrences(name, member))
  }

  /**
   * The parts of the write to collection `name` that starts at `offset` (one of writesTo's): the
   * collection, the method, the key and the value as written; null when none starts there.
   * @param {string} name
   * @param {boolean} member
   * @param {number} offset
   * @returns {WriteParts | null}
   */
  writeAt (name, member, offset) {
    return writeParts(this.#occurrences(name, member), offset, this.text)
  }

  /**
   * The statements that take an entry out of collection `name` (`name.delete(key)`,
   * `name.remove(key)`, `delete name[key]`), with the key as written and whether each runs on
   * every path out of the code around it (entry-removals.js).
   * @param {string} name
   * @param {boolean} member
   * @returns {EntryRemoval[]}
   */
  removalsFrom (name, member) {
    return entryRemovals(this.#occurrences(name, member), { tries: this.#tree.tries, calls: this.#tree.calls, text: this.text })
  }

  /**
   * Whether the code at `at` runs only when a condition holds that the code at `from` does not
   * depend on: a branch (of an if, a ternary, `&&`, a switch case) holds `at` but not `from`.
   * @param {number} from
   * @param {number} at
   */
  branchesApart (from, at) {
    for (const branch of this.#tree.branches) {
      if (branch.start > at) break
      if (branch.end > at && !(branch.start <= from && from < branch.end)) return true
    }
    return false
  }

  /**
   * The call whose name (or `new`) starts at `offset`, as a stack frame's call column and
   * callIn point at: its name, what it is called on, its arguments as written and the variable
   * it is assigned to; or null.
   * @param {number} offset
   * @returns {CallParts | null}
   */
  callAt (offset) {
    return callAt(this.#tree.calls, this.#tree.callParents, offset, this.text)
  }

  /**
   * Where `name` is used as a value: handed to a call, put in an object (`{ agent }`), read, a
   * method called on it. Its declarations, parameters and the plain assignments to it are not
   * uses, nor are object keys spelt like it.
   * @param {string} name a variable name, or a property name read as `<object>.name`
   * @param {boolean} member
   */
  usesOf (name, member) {
    return valueUses(this.#occurrences(name, member))
  }

  /**
   * Whether the code V8 starts at `start` (a function, to its end) names variable `name`: reads,
   * writes or calls it, or declares one of that name (shadowed variables are not told apart).
   * @param {string} name
   * @param {number} start  where V8 starts the function
   */
  mentions (name, start) {
    // Asked once per closure of a scope (a listener per request: thousands): the name's places once.
    let nodes = this.#variableNodes.get(name)
    if (nodes === undefined) {
      nodes = this.#occurrences(name, false).map(({ node }) => node)
      this.#variableNodes.set(name, nodes)
    }
    const i = lowerBound(nodes, start)
    return i < nodes.length && nodes[i].start < this.codeEnd(start)
  }

  /**
   * The call of one of `names` in the code V8 starts at `start`: a call of a function or a method
   * of that name, or `new Name(`; with `constructs`, only `new Name(`. Only the function's own
   * calls count (one in a function nested in it is that function's frame on a stack), and a
   * profile's frame does not say which of two calls on different lines it came through: then
   * none is named. The offset is the name's (`new`'s for a construction), or -1.
   * @param {number} start  where V8 starts the function
   * @param {string[]} names
   * @param {boolean} constructs
   */
  callIn (start, names, constructs) {
    const scopes = this.#tree.scopes
    const own = scopes.functionAt(start)
    const calls = callsOf(this.#tree.calls, start, this.codeEnd(start), names, constructs).filter((at) => own < 0 || scopes.scopeAt(at) === own)
    if (calls.length === 0) return -1
    const line = this.positionOf(calls[0]).line
    return calls.every((at) => this.positionOf(at).line === line) ? calls[0] : -1
  }

  /**
   * The calls of methods named in `methods` that start in [from, to), in text order: where each
   * starts and ends, where its method's name starts, the span of what it is called on, and the
   * call or `new` it is an argument of (`Buffer.from` for
   * `Buffer.from(body.subarray(0, 16))`: the callee's name, or `new Name`), else null.
   * @param {number} from
   * @param {number} to
   * @param {Set<string>} methods
   */
  methodCallsIn (from, to, methods) {
    return methodCallsBetween(this.#tree.calls, this.#tree.callParents, from, to, methods)
  }

  /**
   * The `import()` expressions: where each starts, whether its specifier is one constant
   * string, and the specifier's text.
   */
  dynamicImports () {
    return dynamicImportsIn(this.#tree.calls, this.text)
  }

  /** The calls of `require(...)`: where each starts and its argument's text. */
  requireCalls () {
    return requireCallsIn(this.#tree.calls, this.text)
  }

  /** Offsets of the `delete require.cache[...]` expressions. */
  requireCacheDeletes () {
    return requireCacheDeletesIn(this.#tree.deletes)
  }

  /**
   * The specifier a variable is declared from: `const name = require('x')` (also through tsc's
   * `__importDefault(` and `__importStar(`), or null.
   * @param {string} name
   */
  requiredAs (name) {
    return requiredSpecifier(this.#occurrences(name, false))
  }

  /**
   * What the declarations of variable `name` start it as (`const seen = []` → 'Array'): 'Array'
   * and 'Object' for literals, 'Function' for a function or an arrow, the constructor's name for
   * `new X(...)`, 'number', 'string' or 'boolean' for a literal of that type, '' for anything
   * else or no initializer; one entry per declaration, in text order.
   * @param {string} name
   * @returns {string[]}
   */
  initialKinds (name) {
    /** @type {string[]} */
    const kinds = []
    for (const { node, parent } of this.#occurrences(name, false)) {
      const declarator = /** @type {any} */ (parent)
      if (declarator?.type === 'VariableDeclarator' && declarator.id === node) kinds.push(initialKind(declarator.init))
    }
    return kinds
  }

  /**
   * @param {string} name
   * @param {boolean} member
   */
  #occurrences (name, member) {
    return (member ? this.#tree.members : this.#tree.names).named(name)
  }
}

/**
 * @param {any} init a declarator's initializer, or null
 * @returns {string}
 */
function initialKind (init) {
  switch (init?.type) {
    case 'ArrayExpression': return 'Array'
    case 'ObjectExpression': return 'Object'
    case 'FunctionExpression':
    case 'ArrowFunctionExpression': return 'Function'
    case 'NewExpression': return init.callee.type === 'Identifier' ? init.callee.name : ''
    case 'Literal': return typeof init.value === 'number' || typeof init.value === 'string' || typeof init.value === 'boolean' ? typeof init.value : ''
    default: return ''
  }
}
