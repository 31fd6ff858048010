// When a growing collection lives inside a library's object (a metrics registry's label map, a
// memoizer's cache, a session store's table), the heap shows the library's constructor as the place
// that owns it: true, but not the line a person changes. The program reaches that object through one
// of its own variables; the retainer path shows which, and a closure over that variable's scope
// shows where in the program it lives.

import { findRetainer, propertyTarget } from '../query/references.js'
import { closureOverContext } from './holder-location.js'
import { sourceLocation } from './source-location.js'
/** @import {EdgeCursor} from '../query/references.js' */
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {SourceLocation} from './finding.js' */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
/** Prototype links followed to a library's class. */
const MAX_PROTOTYPES = 4
const IN_PACKAGE = /(?:^|[\\/])node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/g

/**
 * @typedef {object} LibraryHandle
 * @property {string} library          the package that owns the collection (`prom-client`)
 * @property {string} name             the program's variable on the path (`requests`), or the
 *                                     library's own name for the holder when no program variable is
 * @property {string} accessor         how the program reaches the object with removal methods
 *                                     (`render.cache`), or `name`
 * @property {number} ordinal          the object at `accessor` (last snapshot)
 * @property {string} className        the class of the library's object that keeps the collection:
 *                                     the object at `name` (`Counter`), or when that one is not the
 *                                     library's, the collection's holder (`MemoryStore`)
 * @property {boolean} through          whether the object at `name` is not the library's own (a
 *                                     server whose request handler reaches a session store): the
 *                                     program reaches the library's object through it
 * @property {SourceLocation | null} location a function of the program that closes over the
 *                                     variable; null when only library code holds the object
 */

/**
 * The package a script belongs to, or null when it is not under node_modules.
 * @param {string} file
 * @returns {string | null}
 */
export function packageOf (file) {
  let name = null
  for (const match of file.matchAll(IN_PACKAGE)) name = match[1].replaceAll('\\', '/')
  return name
}

/**
 * The program's own handle on a library-owned collection: the last variable on `path` that code
 * outside node_modules closes over (else the collection's holder itself), or null when the
 * collection's holder is not library code.
 * @param {HeapAnalysis} analysis the last snapshot's
 * @param {Step[]} path ends at the collection
 * @param {SourceLocation | null} holder where the heap places the collection's holder
 * @param {string} cwd
 * @param {NameResolver} names
 * @param {(graph: import('../graph/heap-graph.js').HeapGraph, ordinal: number) => boolean} [offers]
 *   whether an object offers the removal methods the fix would call: the handle is moved down the
 *   path to the first object that does
 * @returns {LibraryHandle | null}
 */
export function libraryHandle (analysis, path, holder, cwd, names, offers) {
  const library = holder === null ? null : packageOf(holder.file)
  if (library === null || path.length < 2) return null
  const { graph } = analysis
  let start = path.length - 2
  /** @type {SourceLocation | null} */
  let location = null
  // Past the last function of the program whose own scope the path goes through, the path is in
  // the library's objects: a variable before that function holds the program's code (an ES module
  // reaches an import through its module scope, which a path folds), not the library's object.
  let from = 1
  for (let i = path.length - 2; i >= 2 && from === 1; i--) {
    if (path[i].edgeType !== 'internal' || path[i].edge !== 'context') continue
    const fn = graph.findOrdinalById(path[i - 1].id)
    const own = fn < 0 || graph.nodeTypes[fn] !== graph.nodeType.closure ? null : sourceLocation(analysis, fn, cwd, names)
    if (own !== null && isProgram(own)) from = i + 1
  }
  for (let i = path.length - 2; i >= from; i--) {
    const step = path[i]
    if (step.edgeType !== 'context') continue
    const context = graph.findOrdinalById(path[i - 1].id)
    if (context < 0) continue
    const closure = closureOverContext(analysis, context, i >= 2 ? path[i - 2].id : 0)
    const found = closure < 0 ? null : sourceLocation(analysis, closure, cwd, names)
    if (found === null || !isProgram(found)) continue
    start = i
    location = found
    break
  }
  // No variable of the program holds the library's object, and the collection is a variable of the
  // library's own scope: the collection is the library's, found at its own code.
  if (location === null && path[start].edgeType === 'internal') return null
  // The object that offers the removal methods may sit between the variable and the collection
  // (a memoized function's `.cache`): follow plain property names down the path.
  let accessor = path[start].edge
  let ordinal = graph.findOrdinalById(path[start].id)
  if (ordinal < 0) return null
  if (offers !== undefined && !offers(graph, ordinal)) {
    let reach = accessor
    for (let i = start + 1; i < path.length - 1 && path[i].edgeType === 'property' && IDENTIFIER.test(path[i].edge); i++) {
      reach = `${reach}.${path[i].edge}`
      const o = graph.findOrdinalById(path[i].id)
      if (o >= 0 && offers(graph, o)) {
        accessor = reach
        ordinal = o
        break
      }
    }
  }
  // The object the program holds names its own package and class, when they differ from those of
  // the collection's holder (a client keeping its queue in a helper package's deque).
  const own = constructorOf(analysis, graph.findOrdinalById(path[start].id), cwd, names)
  const ownLibrary = own.location === null ? null : packageOf(own.location.file)
  if (ownLibrary !== null) return { library: ownLibrary, name: path[start].edge, accessor, ordinal, className: own.name, through: false, location }
  // The program's object is Node's or the program's own (an http.Server whose handler reaches
  // express-session's store, a class of the program wrapping a cache): the card names the library's
  // object that holds the collection, reached through the program's variable.
  const keeper = start < path.length - 2 ? graph.findOrdinalById(path[path.length - 2].id) : -1
  const held = keeper < 0 ? null : constructorOf(analysis, keeper, cwd, names)
  if (held !== null && held.location !== null && packageOf(held.location.file) === library) {
    return { library, name: path[start].edge, accessor, ordinal, className: held.name, through: true, location }
  }
  return { library, name: path[start].edge, accessor, ordinal, className: path[start].node, through: false, location }
}

/**
 * Whether code is the program's own: neither a package's nor Node's.
 * @param {SourceLocation} location
 */
function isProgram (location) {
  return packageOf(location.file) === null && !location.file.startsWith('node:')
}

/**
 * The class an object was made by, with where its constructor is: the function whose `prototype`
 * is the object's prototype, else the first `constructor` on its prototype chain, that is not
 * Node's own. V8 names an instance after the first constructor of its map, and a class that mixes
 * an EventEmitter in may even copy EventEmitter's `constructor` onto its prototype (ioredis'
 * Redis): the function that owns the prototype is still the class, and further up the library's
 * own base class says whose object it is.
 * @param {HeapAnalysis} analysis
 * @param {number} o
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {{name: string, location: SourceLocation | null}}
 */
export function constructorOf (analysis, o, cwd, names) {
  const { graph } = analysis
  let proto = propertyTarget(graph, o, '__proto__')
  for (let level = 0; proto >= 0 && level < MAX_PROTOTYPES; level++) {
    const owner = graph.hasRetainers ? findRetainer(graph, proto, isPrototypeOfFunction) : -1
    for (const ctor of [owner, propertyTarget(graph, proto, 'constructor')]) {
      if (ctor < 0 || graph.nodeTypes[ctor] !== graph.nodeType.closure) continue
      const location = sourceLocation(analysis, ctor, cwd, names)
      if (location !== null && location.function !== '' && !location.file.startsWith('node:')) return { name: location.function, location }
    }
    proto = propertyTarget(graph, proto, '__proto__')
  }
  return { name: analysis.classes.names[analysis.classOf[o]], location: sourceLocation(analysis, o, cwd, names) }
}

/**
 * A function's `prototype` property.
 * @param {EdgeCursor} edge
 */
function isPrototypeOfFunction (edge) {
  return edge.is('property', 'prototype') && edge.graph.nodeTypes[edge.source] === edge.graph.nodeType.closure
}

/**
 * The package whose module scope is the nearest on the path to its end, or null (the program's
 * module, or none): for a collection under plain objects and builtins only (chokidar's map of
 * watched paths, each entry a plain object holding a Set of listeners).
 * @param {Step[]} path
 * @returns {string | null}
 */
export function scopePackage (path) {
  for (let i = path.length - 1; i >= 0; i--) {
    const module = path[i].module
    if (typeof module === 'string') return packageOf(module)
  }
  return null
}

/**
 * Where the nearest object on the path that a library made was constructed, from step `from`
 * towards the roots: for a collection whose own holder the heap places nowhere (a plain object
 * inside the library's instance).
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path
 * @param {number} from  the step to start at
 * @param {string} cwd
 * @param {NameResolver} names
 * @returns {SourceLocation | null}
 */
export function libraryAncestor (analysis, path, from, cwd, names) {
  for (let i = from; i >= 1; i--) {
    const o = analysis.graph.findOrdinalById(path[i].id)
    if (o < 0 || analysis.graph.nodeTypes[o] !== analysis.graph.nodeType.object) continue
    const { location } = constructorOf(analysis, o, cwd, names)
    if (location !== null && packageOf(location.file) !== null) return location
  }
  return null
}
