// The one parse of the user's code. Every question a report asks about a script's text (the
// function around a position, the call at a column, the writes to a variable, a scope's
// bindings) is answered from the script's syntax tree, made here once per text and kept in a
// cache bounded by the total size of the texts, so that the signatures, the allocation stacks
// and the original names never read the same script two different ways.
//
// Scripts come as ES modules, CommonJS, minified bundles, compilers' output, or copies the heap
// snapshot cut at its string limit (1,024 characters by default). acorn parses them as a module,
// else as a script (CommonJS may `return` at its top level), else with acorn-loose, which makes a
// tree of any text: a cut copy's last function then runs to the end of the text. Nothing here
// throws into the analysis: a text no parser reads answers every question with nothing.
//
// One walk of the tree (acorn-walk, which visits identifiers only where they are variables, never
// property names) indexes what the questions need:
//
//   functions  sorted by where V8 starts them: the parameters' `(`, or an arrow's lone parameter
//              (that is the position a heap snapshot or an allocation profile gives)
//   names      each variable occurrence with its parent and grandparent node, in text order
//   members    each `<object>.name` read, with its parent and grandparent
//   calls      calls, `new` and `import()`, with their parents, in text order

import { parse } from 'acorn'
import { parse as parseLoose } from 'acorn-loose'
import { fullAncestor } from 'acorn-walk'
import { LRUCache } from 'lru-cache'
import { lineStarts, positionOf } from './text-positions.js'
/** @import {Node} from 'acorn' */

/**
 * Characters of source whose trees the cache keeps. A tree and its indexes take about 35 bytes
 * per character of the text (measured on a 3.6 MB esbuild bundle of the TypeScript compiler:
 * 123 MB), so this is about 280 MB at most: that bundle twice, or hundreds of ordinary files.
 */
export const SYNTAX_CACHE_CHARS = 8_000_000

/** @type {LRUCache<string, ScriptSyntax>} keyed by the text itself */
const cache = new LRUCache({ maxSize: SYNTAX_CACHE_CHARS, sizeCalculation: (_, text) => Math.max(1, text.length) })

/** The scope of a script's top level: no function around. */
export const PROGRAM = -1

/** Methods that add an entry to the collection they are called on. */
const ADDING_METHODS = new Set(['push', 'unshift', 'set', 'add', 'splice'])
/** Assignments through a key that store an entry (`+=` changes one). */
const STORING_OPERATORS = new Set(['=', '??=', '||=', '&&='])
/** Names a CommonJS module's wrapper function declares: its top level uses them undeclared. */
const COMMONJS_NAMES = ['exports', 'require', 'module', '__filename', '__dirname']

/**
 * An occurrence of a variable, or of a property read (`<object>.name`).
 * @typedef {object} Occurrence
 * @property {Node} node      the Identifier, or the MemberExpression ending in the property
 * @property {Node | undefined} parent
 * @property {Node | undefined} grand
 * @property {boolean} declares  whether it declares the variable (a binding, a parameter, an import)
 */

/**
 * Where a value is used, and how.
 * @typedef {object} Use
 * @property {number} offset  the variable's start, or the start of the member expression ending in the property
 * @property {{callee: string, argument: number, iterated: boolean} | null} call  set when the value is
 *   an argument of a call: the callee's name (a method's own name for `a.on(...)`), which argument
 *   (0-based), and whether a `for ... of` loops over what the call returns
 * @property {string | null} method  the method called on the value (`value.on(...)`), or null
 */

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

/**
 * The tree of a text: as a module, else as a script, else loosely; null when none parses it.
 * @param {string} text
 * @returns {{program: Node, how: 'module' | 'script' | 'loose'} | null}
 */
function parseText (text) {
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

export class ScriptSyntax {
  /** How the text was read: 'none' when no parser could. */
  how
  text
  /** @type {number[] | null} */
  #lines = null
  /** @type {Node[]} functions, by their V8 start, outer first on a tie */
  #functions = []
  /** @type {Int32Array} */
  #starts = new Int32Array(0)
  /** @type {Int32Array} */
  #ends = new Int32Array(0)
  /** @type {Int32Array} the innermost function around each, PROGRAM for none */
  #parents = new Int32Array(0)
  /** @type {Map<number, Node>} classes by their start (V8 starts a class without a constructor there) */
  #classes = new Map()
  // Flat lists, searched per question: a report asks about a few names, and a bundle has
  // hundreds of thousands of identifiers that a Map entry or an object each would cost more to
  // make than the questions cost to answer.
  /** @type {Node[]} variable occurrences (Identifier nodes), in text order */
  #ids = []
  /** @type {Array<Node | undefined>} */
  #idParents = []
  /** @type {Array<Node | undefined>} */
  #idGrands = []
  /** @type {boolean[]} */
  #idDeclares = []
  /** @type {Node[]} member expressions with a written-out property name */
  #members = []
  /** @type {Array<Node | undefined>} */
  #memberParents = []
  /** @type {Array<Node | undefined>} */
  #memberGrands = []
  /** @type {Node[]} CallExpression, NewExpression and ImportExpression nodes, by start */
  #calls = []
  /** @type {Array<Node | undefined>} the parent of each of #calls */
  #callParents = []
  /** @type {Node[]} `delete` expressions */
  #deletes = []
  /** @type {Array<{name: string, at: number}>} declared names and where */
  #declared = []
  /** @type {Map<number, Set<string>>} per scope, the names declared in it */
  #bindings = new Map()

  /**
   * @param {string} text
   */
  constructor (text) {
    this.text = text
    const parsed = parseText(text)
    this.how = parsed === null ? 'none' : parsed.how
    if (parsed !== null) this.#index(parsed.program)
  }

  /**
   * @param {Node} program
   */
  #index (program) {
    /** @type {Node[]} */
    const functions = []
    /** @type {Array<{node: Node, parent: Node | undefined}>} */
    const calls = []
    fullAncestor(program, (node, _, ancestors, type) => {
      // A node is called back once, as the kind it was last visited as: an identifier in a
      // pattern as 'VariablePattern', a function as 'Function'.
      switch (node.type) {
        case 'Identifier':
          this.#addName(node, ancestors, type === 'VariablePattern')
          break
        case 'FunctionDeclaration':
        case 'FunctionExpression':
        case 'ArrowFunctionExpression':
          functions.push(node)
          break
        case 'ClassDeclaration':
        case 'ClassExpression':
          this.#classes.set(node.start, node)
          break
        case 'MemberExpression':
          if (!(/** @type {any} */ (node).computed)) {
            this.#members.push(node)
            this.#memberParents.push(ancestors[ancestors.length - 2])
            this.#memberGrands.push(ancestors[ancestors.length - 3])
          }
          break
        case 'CallExpression':
        case 'NewExpression':
        case 'ImportExpression':
          calls.push({ node, parent: ancestors[ancestors.length - 2] })
          break
        case 'UnaryExpression':
          if (/** @type {any} */ (node).operator === 'delete') this.#deletes.push(node)
          break
        case 'ImportDeclaration':
          for (const specifier of /** @type {any} */ (node).specifiers) {
            this.#addName(specifier.local, [...ancestors, specifier, specifier.local], true)
          }
          break
        case 'ExportNamedDeclaration':
          if (/** @type {any} */ (node).source) break
          for (const specifier of /** @type {any} */ (node).specifiers) {
            if (specifier.local.type === 'Identifier') this.#addName(specifier.local, [...ancestors, specifier, specifier.local], false)
          }
          break
      }
    })
    const starts = functions.map((node) => this.#v8Start(node))
    const order = functions.map((_, i) => i).sort((a, b) => starts[a] - starts[b] || functions[b].end - functions[a].end)
    this.#functions = order.map((i) => functions[i])
    this.#starts = Int32Array.from(order, (i) => starts[i])
    this.#ends = Int32Array.from(order, (i) => functions[i].end)
    this.#parents = new Int32Array(order.length)
    /** @type {number[]} */
    const open = []
    for (let f = 0; f < order.length; f++) {
      while (open.length > 0 && this.#ends[open[open.length - 1]] <= this.#starts[f]) open.pop()
      this.#parents[f] = open.length === 0 ? PROGRAM : open[open.length - 1]
      open.push(f)
    }
    calls.sort((a, b) => a.node.start - b.node.start)
    this.#calls = calls.map((call) => call.node)
    this.#callParents = calls.map((call) => call.parent)
    this.#sortNames()
  }

  /**
   * @param {any} node an Identifier
   * @param {Node[]} ancestors  outermost first, the node last
   * @param {boolean} pattern   whether it was visited as a pattern (a binding or an assignment target)
   */
  #addName (node, ancestors, pattern) {
    const declaration = pattern ? declarationOf(node, ancestors) : null
    this.#ids.push(node)
    this.#idParents.push(ancestors[ancestors.length - 2])
    this.#idGrands.push(ancestors[ancestors.length - 3])
    this.#idDeclares.push(declaration !== null)
    // A function expression's own name is seen only inside it; a declaration's in the scope around.
    if (declaration !== null) this.#declared.push({ name: node.name, at: declaration.type === 'FunctionExpression' ? this.#v8Start(declaration) : node.start })
  }

  /**
   * Where V8 starts a function (its SharedFunctionInfo's start position, checked with
   * %FunctionGetScriptSourcePosition on Node 20): the parameters' `(` of a function or a method,
   * the first token of an arrow (`async` too).
   * @param {any} node
   */
  #v8Start (node) {
    if (node.type === 'ArrowFunctionExpression') return node.start
    const text = this.text
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
    return this.#functions.length
  }

  /**
   * Where a function starts (as V8 starts it) and ends.
   * @param {number} f
   * @returns {{start: number, end: number}}
   */
  functionSpan (f) {
    return { start: this.#starts[f], end: this.#ends[f] }
  }

  /**
   * The innermost function whose span (V8's start to its end) holds `offset`, or PROGRAM.
   * @param {number} offset
   */
  scopeAt (offset) {
    let low = 0
    let high = this.#starts.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#starts[middle] <= offset) low = middle + 1
      else high = middle
    }
    let f = low - 1
    while (f >= 0 && this.#ends[f] <= offset) f = this.#parents[f]
    return f
  }

  /**
   * The function V8 starts at exactly `offset` (the outermost, when an arrow's body is another
   * arrow that starts there too), or -1.
   * @param {number} offset
   */
  functionAt (offset) {
    let f = this.scopeAt(offset)
    if (f < 0 || this.#starts[f] !== offset) return -1
    while (this.#parents[f] >= 0 && this.#starts[this.#parents[f]] === offset) f = this.#parents[f]
    return f
  }

  /**
   * The function a function is declared in, or PROGRAM.
   * @param {number} f
   */
  parentOf (f) {
    return f < 0 ? PROGRAM : this.#parents[f]
  }

  /**
   * The innermost scope around both.
   * @param {number} a
   * @param {number} b
   */
  commonScope (a, b) {
    const chain = new Set()
    for (let s = a; s !== PROGRAM; s = this.#parents[s]) chain.add(s)
    for (let s = b; s !== PROGRAM; s = this.#parents[s]) if (chain.has(s)) return s
    return PROGRAM
  }

  /**
   * Where the code that starts at `offset` (a position V8 gives for a function or a class) ends:
   * that function's or class's end; for a position inside one, the end of the innermost function
   * around it; else the text's end.
   * @param {number} offset
   */
  codeEnd (offset) {
    const f = this.functionAt(offset)
    if (f >= 0) return this.#ends[f]
    const type = this.#classes.get(offset)
    if (type !== undefined) return type.end
    const around = this.scopeAt(offset)
    return around >= 0 ? this.#ends[around] : this.text.length
  }

  /**
   * The variable whose name starts at `offset` (no property name, no text in a string or a
   * comment), or null.
   * @param {number} offset
   */
  nameAt (offset) {
    const ids = this.#ids
    const i = lowerBound(ids, offset)
    return i < ids.length && ids[i].start === offset ? /** @type {any} */ (ids[i]).name : null
  }

  /**
   * The names a scope declares: its variables, functions, classes, parameters and imports (in
   * its blocks too: V8 keeps a captured block variable in the function's Context); for the top
   * level, also what a CommonJS wrapper declares. A function's scope has `arguments`.
   * @param {number} scope a function, or PROGRAM
   * @returns {Set<string>}
   */
  bindings (scope) {
    if (this.#bindings.size === 0) {
      this.#bindings.set(PROGRAM, new Set(COMMONJS_NAMES))
      for (const { name, at } of this.#declared) {
        const s = this.scopeAt(at)
        let names = this.#bindings.get(s)
        if (names === undefined) this.#bindings.set(s, (names = new Set(['arguments'])))
        names.add(name)
      }
    }
    return this.#bindings.get(scope) ?? new Set(scope === PROGRAM ? COMMONJS_NAMES : ['arguments'])
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
    const offsets = new Set()
    for (const { node, parent, grand } of this.#occurrences(name, member)) {
      if (parent?.type === 'MemberExpression' && /** @type {any} */ (parent).object === node) {
        const p = /** @type {any} */ (parent)
        const g = /** @type {any} */ (grand)
        const adds = !p.computed && ADDING_METHODS.has(propertyName(p) ?? '') && g?.type === 'CallExpression' && g.callee === p
        const stores = p.computed && g?.type === 'AssignmentExpression' && g.left === p && STORING_OPERATORS.has(g.operator)
        if (adds || stores) offsets.add(node.start)
      } else if (parent?.type === 'CallExpression' && /** @type {any} */ (parent).arguments[0] === node && isObjectAssign(/** @type {any} */ (parent).callee)) {
        offsets.add(parent.start)
      }
    }
    return [...offsets].sort((a, b) => a - b)
  }

  /**
   * Where `name` is used as a value: handed to a call, put in an object (`{ agent }`), read, a
   * method called on it. Its declarations, parameters and the plain assignments to it are not
   * uses, nor are object keys spelt like it.
   * @param {string} name a variable name, or a property name read as `<object>.name`
   * @param {boolean} member
   * @returns {Use[]} ascending by offset
   */
  usesOf (name, member) {
    /** @type {Use[]} */
    const uses = []
    for (const { node, parent, grand, declares } of this.#occurrences(name, member)) {
      const p = /** @type {any} */ (parent)
      const g = /** @type {any} */ (grand)
      if (declares || (p?.type === 'AssignmentExpression' && p.left === node && p.operator === '=')) continue
      const argument = (p?.type === 'CallExpression' || p?.type === 'NewExpression') ? p.arguments.indexOf(node) : -1
      const call = argument < 0
        ? null
        : { callee: calleeName(p.callee) ?? '', argument, iterated: g?.type === 'ForOfStatement' && g.right === p }
      const calls = p?.type === 'MemberExpression' && p.object === node && !p.computed && g?.type === 'CallExpression' && g.callee === p
      uses.push({ offset: node.start, call, method: calls ? propertyName(p) : null })
    }
    return uses.sort((a, b) => a.offset - b.offset)
  }

  /**
   * The first call (in text order) of one of `names` in the code V8 starts at `start`: a call of
   * a function or a method of that name, or `new Name(`; with `constructs`, only `new Name(`.
   * The offset is the name's (`new`'s for a construction), or -1.
   * @param {number} start  where V8 starts the function
   * @param {string[]} names
   * @param {boolean} constructs
   */
  callIn (start, names, constructs) {
    const end = this.codeEnd(start)
    const wanted = new Set(names)
    let best = -1
    for (let i = lowerBound(this.#calls, start); i < this.#calls.length && this.#calls[i].start < end; i++) {
      const call = /** @type {any} */ (this.#calls[i])
      if (call.type === 'ImportExpression' || (constructs && call.type !== 'NewExpression')) continue
      const callee = call.callee
      const name = constructs ? (callee.type === 'Identifier' ? callee.name : null) : calleeName(callee)
      if (name === null || !wanted.has(name)) continue
      const at = constructs ? call.start : callee.type === 'MemberExpression' ? callee.property.start : callee.start
      if (best < 0 || at < best) best = at
    }
    return best
  }

  /**
   * The calls of methods named in `methods` that start in [from, to), in text order: where each
   * starts and ends, and the call or `new` it is an argument of (`Buffer.from` for
   * `Buffer.from(body.subarray(0, 16))`: the callee's name, or `new Name`), else null.
   * @param {number} from
   * @param {number} to
   * @param {Set<string>} methods
   * @returns {Array<{start: number, end: number, argumentOf: string | null}>}
   */
  methodCallsIn (from, to, methods) {
    const found = []
    for (let i = lowerBound(this.#calls, from); i < this.#calls.length && this.#calls[i].start < to; i++) {
      const call = /** @type {any} */ (this.#calls[i])
      if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || !methods.has(propertyName(call.callee) ?? '')) continue
      const parent = /** @type {any} */ (this.#callParents[i])
      const outer = (parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.arguments.includes(call) ? parent : null
      const name = outer === null ? null : calleeName(outer.callee)
      found.push({ start: call.start, end: call.end, argumentOf: name === null ? null : outer.type === 'NewExpression' ? `new ${name}` : name })
    }
    return found
  }

  /**
   * The `import()` expressions: where each starts, whether its specifier is one constant
   * string, and the specifier's text.
   * @returns {Array<{offset: number, constant: boolean, specifier: string}>}
   */
  dynamicImports () {
    return this.#calls.filter((node) => node.type === 'ImportExpression').map((node) => {
      const source = /** @type {any} */ (node).source
      const constant = (source.type === 'Literal' && typeof source.value === 'string') || (source.type === 'TemplateLiteral' && source.expressions.length === 0)
      return { offset: node.start, constant, specifier: this.text.slice(source.start, source.end) }
    })
  }

  /**
   * The calls of `require(...)`: where each starts and its argument's text.
   * @returns {Array<{offset: number, specifier: string}>}
   */
  requireCalls () {
    /** @type {Array<{offset: number, specifier: string}>} */
    const found = []
    for (const node of this.#calls) {
      const call = /** @type {any} */ (node)
      if (call.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== 'require' || call.arguments.length === 0) continue
      found.push({ offset: call.start, specifier: this.text.slice(call.arguments[0].start, call.arguments[0].end) })
    }
    return found
  }

  /**
   * Offsets of the `delete require.cache[...]` expressions.
   * @returns {number[]}
   */
  requireCacheDeletes () {
    return this.#deletes.filter((node) => {
      const target = /** @type {any} */ (node).argument
      return target.type === 'MemberExpression' && target.object.type === 'MemberExpression' && isNamed(target.object.object, 'require') && propertyName(target.object) === 'cache'
    }).map((node) => node.start).sort((a, b) => a - b)
  }

  /**
   * The specifier a variable is declared from: `const name = require('x')` (also through tsc's
   * `__importDefault(` and `__importStar(`), or null.
   * @param {string} name
   * @returns {string | null}
   */
  requiredAs (name) {
    for (const { node, parent } of this.#occurrences(name, false)) {
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

  /**
   * @param {string} name
   * @param {boolean} member
   */
  #occurrences (name, member) {
    /** @type {Occurrence[]} */
    const found = []
    if (member) {
      const members = this.#members
      for (let i = 0; i < members.length; i++) {
        if (propertyName(members[i]) === name) found.push({ node: members[i], parent: this.#memberParents[i], grand: this.#memberGrands[i], declares: false })
      }
      return found
    }
    const ids = this.#ids
    for (let i = 0; i < ids.length; i++) {
      if (/** @type {any} */ (ids[i]).name === name) found.push({ node: ids[i], parent: this.#idParents[i], grand: this.#idGrands[i], declares: this.#idDeclares[i] })
    }
    return found
  }

  /** Puts the variable occurrences in text order, when the walk did not visit them so. */
  #sortNames () {
    const ids = this.#ids
    let sorted = true
    for (let i = 1; i < ids.length && sorted; i++) sorted = ids[i - 1].start <= ids[i].start
    if (sorted) return
    const order = ids.map((_, i) => i).sort((a, b) => ids[a].start - ids[b].start)
    const parents = this.#idParents
    const grands = this.#idGrands
    const declares = this.#idDeclares
    this.#ids = order.map((i) => ids[i])
    this.#idParents = order.map((i) => parents[i])
    this.#idGrands = order.map((i) => grands[i])
    this.#idDeclares = order.map((i) => declares[i])
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

/**
 * A member expression's property name when it is written out (`#name` for a private one), else null.
 * @param {any} node
 * @returns {string | null}
 */
function propertyName (node) {
  if (node.computed) return null
  if (node.property.type === 'Identifier') return node.property.name
  if (node.property.type === 'PrivateIdentifier') return `#${node.property.name}`
  return null
}

/**
 * A callee's name: a function's, or a method's own (`on` for `emitter.on`).
 * @param {any} callee
 * @returns {string | null}
 */
function calleeName (callee) {
  if (callee.type === 'Identifier') return callee.name
  if (callee.type === 'MemberExpression') return propertyName(callee)
  return null
}

/**
 * @param {any} node
 * @param {string} name
 */
function isNamed (node, name) {
  return node?.type === 'Identifier' && node.name === name
}

/**
 * @param {any} callee
 */
function isObjectAssign (callee) {
  return callee.type === 'MemberExpression' && isNamed(callee.object, 'Object') && propertyName(callee) === 'assign'
}

/**
 * The first node in `nodes` (sorted by start) that starts at or after `offset`.
 * @param {Node[]} nodes
 * @param {number} offset
 */
function lowerBound (nodes, offset) {
  let low = 0
  let high = nodes.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (nodes[middle].start < offset) low = middle + 1
    else high = middle
  }
  return low
}

const OPEN_PAREN = 0x28
const SLASH = 0x2f
const STAR = 0x2a
