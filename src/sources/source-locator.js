// The one place locations leave the code that ran for the code people wrote. Signatures find
// locations in the scripts the heap knows (text completed from disk through `scriptText`); then,
// before the Report is built, every finding's location passes through `mapFindings` once: through
// the script's source map when it has one, with the original line as a snippet. Everything is
// read lazily: only the scripts that findings name, each file and map once.
//
//   finding.location (generated) --script URL--> ScriptFiles (disk, --source-root, checked
//   against the snapshot's copy) --> loadSourceMap (comment, data: URL, beside, --source-maps)
//   --> TraceMap.originalPositionFor --> {file, line, column, function, generated, original}
//
// Names a minifier gave go back to the names people wrote through the same maps' `names`
// (original-names.js): hooks on each analysis (HeapGraph.originalName for variables,
// nameFunction, nameClass) answer when a report first shows a name, before the diff builds its
// paths and the signatures their titles and fixes; the scans of the code that ran keep its names.

import { isAbsolute, resolve } from 'node:path'
import { GREATEST_LOWER_BOUND, LEAST_UPPER_BOUND, originalPositionFor, sourceContentFor } from '@jridgewell/trace-mapping'
import { findModuleScopes, moduleScriptOf } from '../analysis/module-scopes.js'
import { scriptFunctions } from '../signatures/script-functions.js'
import { scriptSourceOf } from '../signatures/script-source.js'
import { readableScriptName } from '../signatures/source-location.js'
import { pathOfUrl, readText, ScriptFiles } from './script-files.js'
import { PROGRAM, ScriptNames } from './original-names.js'
import { loadSourceMap, sourceMappingUrl } from './source-maps.js'
import { parseSourceRoot } from './source-roots.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Finding, SourceLocation} from '../signatures/finding.js' */
/** @import {LoadedMap} from './source-maps.js' */
/** @import {ScriptFunction} from '../signatures/script-functions.js' */
/** @import {TraceMap} from '@jridgewell/trace-mapping' */

/** Closures of one Context looked at to find the function it belongs to. */
const CONTEXT_CLOSURES = 64
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** A snippet longer than this is cut: a minified line is no snippet. */
const MAX_SNIPPET = 160

/**
 * @typedef {object} SourceOptions
 * @property {string | null} [sourceMaps]  a directory of source maps kept apart from the code
 * @property {Array<string | {from: string, to: string}>} [sourceRoots]  `FROM=TO`: a path of the
 *   process (`/app`) and where the same files are on this machine (`.`)
 */

export class SourceLocator {
  #files
  #mapsDir
  #cwd
  /** @type {Map<string, LoadedMap>} per script URL */
  #maps = new Map()
  /** @type {Map<string, string[] | null>} per original source, its lines */
  #sources = new Map()
  /** @type {Map<string, string | null>} per script URL, the snapshot's copy of its text */
  #copies = new Map()
  /** @type {Map<string, ScriptNames | null>} per script URL, its map's names */
  #names = new Map()
  /** @type {WeakMap<HeapAnalysis, Map<number, number[]>>} per analysis, a few closures of each script id */
  #closures = new WeakMap()

  /**
   * @param {SourceOptions & {cwd?: string}} [options]
   */
  constructor ({ sourceMaps = null, sourceRoots = [], cwd = process.cwd() } = {}) {
    this.#cwd = cwd
    this.#files = new ScriptFiles({ roots: sourceRoots.map((root) => parseSourceRoot(root, cwd)), cwd })
    this.#mapsDir = sourceMaps === null ? null : resolve(cwd, sourceMaps)
  }

  /**
   * A script's text for the scans that look for a line in it: the file on disk when it starts with
   * the snapshot's (cut) copy, else that copy.
   * @param {string} url the Script's name
   * @param {string | null} snapshotText
   * @returns {string | null}
   */
  scriptText (url, snapshotText) {
    return this.#files.read(url, snapshotText).text
  }

  /**
   * The findings with their locations mapped to the original sources where the scripts have
   * source maps; a one-line note added to a finding whose location could not be mapped for a
   * reason the user can fix. Other findings come back as they are.
   * @param {Finding[]} findings
   * @param {HeapAnalysis} analysis the last snapshot's (the one the signatures read)
   * @returns {Finding[]}
   */
  mapFindings (findings, analysis) {
    const located = findings.filter((finding) => finding.location !== null && !finding.location.file.startsWith('node:'))
    if (located.length === 0) return findings
    /** @type {Map<string, {id: number, url: string}>} readable file name -> script */
    const byFile = new Map()
    for (const [id, url] of analysis.locations.scriptNames()) {
      if (url === '' || url.startsWith('node:')) continue
      const name = readableScriptName(url, this.#cwd)
      if (!byFile.has(name)) byFile.set(name, { id, url })
    }
    const wanted = new Set(located.map((finding) => byFile.get(/** @type {SourceLocation} */ (finding.location).file)?.id).filter((id) => id !== undefined))
    if (wanted.size === 0) return findings
    /** @type {Map<number, string | null>} the snapshot's copy of each wanted script */
    const copies = new Map()
    const functionsOf = scriptFunctions(analysis, (id) => wanted.has(id))
    for (const [id, functions] of functionsOf) {
      let text = null
      for (const f of functions) if ((text = scriptSourceOf(analysis.graph, f.ordinal)) !== null) break
      copies.set(id, text)
    }
    return findings.map((finding) => {
      const location = finding.location
      const script = location === null ? undefined : byFile.get(location.file)
      if (location === null || script === undefined) return finding
      return this.#mapFinding(finding, location, { url: script.url, copy: copies.get(script.id) ?? null, functions: functionsOf.get(script.id) ?? [] }, analysis)
    })
  }

  /**
   * Gives the analysis's graph the names people wrote for the variables a minifier renamed
   * (HeapGraph.originalName), found when a report first shows a variable: the Context's script
   * and its map are read then, once.
   * @param {HeapAnalysis} analysis
   */
  nameVariables (analysis) {
    const { graph } = analysis
    /** @type {Map<number, {names: ScriptNames, scope: number} | null>} per Context ordinal */
    const scopes = new Map()
    /** @type {Map<number, string | null>} per edge asked for */
    const named = new Map()
    /** @type {import('../analysis/module-scopes.js').ModuleScopes | undefined} */
    let modules
    graph.originalName = (edge) => {
      let name = named.get(edge)
      if (name !== undefined) return name
      name = null
      const token = graph.edgeName(edge)
      if (IDENTIFIER.test(token)) {
        const context = graph.edgeSource(edge)
        let scope = scopes.get(context)
        if (scope === undefined) {
          modules ??= findModuleScopes(graph, analysis.locations)
          scopes.set(context, (scope = this.#contextScope(analysis, context, modules)))
        }
        const original = scope === null ? null : scope.names.bindingName(token, scope.scope)
        if (original !== token) name = original
        if (name === null) {
          modules ??= findModuleScopes(graph, analysis.locations)
          name = this.#importName(analysis, context, token, modules)
        }
      }
      named.set(edge, name)
      return name
    }
  }

  /**
   * The name a module variable stands for when a compiler made it up for an import: tsc compiles
   * `import { auditTrail } from './audit'` to CommonJS as `const audit_1 = require("./audit")`
   * (the specifier's file name, `_` for what is no identifier character, and a counter), and
   * every use as `audit_1.auditTrail`. The name is taken only when the script's text declares the
   * variable so, from a specifier that makes that very name, and the scope has no variable of
   * the name given (a file name without its extension: `audit`). Null otherwise.
   * @param {HeapAnalysis} analysis
   * @param {number} context
   * @param {string} token
   * @param {import('../analysis/module-scopes.js').ModuleScopes} modules
   * @returns {string | null}
   */
  #importName (analysis, context, token, modules) {
    const made = /^([\w$]+)_\d+$/.exec(token)
    const url = made === null ? null : moduleScriptOf(modules, context)
    if (made === null || url === null || url.startsWith('node:')) return null
    const text = this.#files.read(url, this.#copyOf(url, analysis)).text
    if (text === null) return null
    const declared = new RegExp(`(?:^|[;\\s])(?:const|let|var)\\s+${token.replace(/\$/g, '\\$')}\\s*=\\s*(?:__importDefault\\(|__importStar\\()?require\\((["'])([^"'\\n]+)\\1\\)`).exec(text)
    if (declared === null) return null
    const file = declared[2].slice(declared[2].lastIndexOf('/') + 1)
    // tsc's makeIdentifierFromModuleName.
    if (file.replace(/^(\d)/, '_$1').replace(/\W/g, '_') !== made[1]) return null
    const name = file.replace(/\.(?:[cm]?[jt]sx?|json)$/, '')
    const { graph } = analysis
    for (let e = graph.firstEdge[context], end = graph.firstEdge[context + 1]; e < end; e++) {
      if (graph.edgeTypes[e] === graph.edgeType.context && graph.edgeName(e) === name) return null
    }
    return name === '' ? null : name
  }

  /**
   * Gives the analysis the source file each compiled script was made from (HeapAnalysis.nameModule):
   * the one source of the script's source map (tsc makes one script per source file; a bundle's
   * map has many, and the bundle keeps its name).
   * @param {HeapAnalysis} analysis
   */
  nameModules (analysis) {
    /** @type {Map<string, string | null>} */
    const named = new Map()
    analysis.nameModule = (url) => {
      let name = named.get(url)
      if (name !== undefined) return name
      name = null
      if (url !== '' && !url.startsWith('node:')) {
        const { map } = this.#mapOf(url, this.#files.read(url, this.#copyOf(url, analysis)))
        const sources = map === null ? [] : map.resolvedSources.filter((source) => typeof source === 'string')
        if (sources.length === 1) name = this.#shown(sources[0])
      }
      named.set(url, name)
      return name
    }
  }

  /**
   * Gives the analysis the names people wrote for the classes a minifier renamed
   * (HeapAnalysis.nameClass), found from the constructor's start that V8 records for each of its
   * objects, when a report first shows an object of the class.
   * @param {HeapAnalysis} analysis
   */
  nameClasses (analysis) {
    const { graph, locations, classOf } = analysis
    /** @type {Map<number, string | null>} per class */
    const named = new Map()
    analysis.nameClass = (ordinal, name) => {
      if (graph.nodeTypes[ordinal] !== graph.nodeType.object) return null
      let original = named.get(classOf[ordinal])
      if (original !== undefined) return original
      original = null
      const record = locations.recordOf(ordinal)
      if (record >= 0) {
        const [scriptId, line, column] = locations.recordFields(record)
        const url = locations.scriptName(scriptId)
        if (url !== null) original = this.functionName(url, name, { line, column }, analysis)
      }
      named.set(classOf[ordinal], original)
      return original
    }
  }

  /**
   * The class table's names that stand for classes a minifier renamed, with the names people
   * wrote: a name is taken when every class of that name in the snapshot (two scripts may have
   * an `a`) has the same original, found from one object of each (nameClasses).
   * @param {Iterable<string>} shown the names a report shows
   * @param {HeapAnalysis} analysis with nameClasses set
   * @returns {Map<string, string>}
   */
  classNames (shown, analysis) {
    const { graph, classes, classOf, locations } = analysis
    const wanted = new Set([...shown].filter((name) => IDENTIFIER.test(name)))
    /** @type {Map<string, string>} */
    const renamed = new Map()
    if (wanted.size === 0 || analysis.nameClass === undefined) return renamed
    const sample = new Int32Array(classes.names.length).fill(-2)
    let missing = 0
    classes.names.forEach((name, k) => {
      if (!wanted.has(name)) return
      sample[k] = -1
      missing++
    })
    // One object of each class, with its constructor's location: a single pass that stops once
    // every class has one.
    for (let o = 0; o < graph.nodeCount && missing > 0; o++) {
      const k = classOf[o]
      if (sample[k] !== -1 || graph.nodeTypes[o] !== graph.nodeType.object || locations.recordOf(o) < 0) continue
      sample[k] = o
      missing--
    }
    /** @type {Map<string, string | null>} */
    const agreed = new Map()
    classes.names.forEach((name, k) => {
      if (sample[k] === -2 || agreed.get(name) === null) return
      const original = sample[k] < 0 ? null : /** @type {NonNullable<HeapAnalysis['nameClass']>} */ (analysis.nameClass)(sample[k], name)
      const before = agreed.get(name)
      agreed.set(name, original === null || (before !== undefined && before !== original) ? null : original)
    })
    for (const [name, original] of agreed) if (original !== null) renamed.set(name, original)
    return renamed
  }

  /**
   * The script and the function a Context belongs to: a module scope's script at its top level;
   * else the function around every closure made with the Context, when the map's code has each
   * of them starting where V8 says and the Context's variables all appear in that function's
   * own code (a function that captures nothing has no Context: its closures get the outer one).
   * @param {HeapAnalysis} analysis
   * @param {number} context
   * @param {import('../analysis/module-scopes.js').ModuleScopes} modules
   * @returns {{names: ScriptNames, scope: number} | null}
   */
  #contextScope (analysis, context, modules) {
    const { graph, locations } = analysis
    const variables = []
    for (let e = graph.firstEdge[context], end = graph.firstEdge[context + 1]; e < end; e++) {
      if (graph.edgeTypes[e] !== graph.edgeType.context) continue
      const variable = graph.edgeName(e)
      if (IDENTIFIER.test(variable)) variables.push(variable)
    }
    // A module's scope is its script's top level, unless the script wraps its code in a function
    // (an IIFE bundle): then the closures tell which function, as for any other Context.
    const moduleUrl = moduleScriptOf(modules, context)
    if (moduleUrl !== null) {
      const names = this.#namesOf(moduleUrl, analysis)
      if (names === null) return null
      if (names.declaresAll(variables, PROGRAM)) return { names, scope: PROGRAM }
    }
    if (!graph.hasRetainers) return null
    const contextEdge = graph.strings.indexOf('context')
    /** @type {ScriptNames | null} */
    let names = null
    let url = null
    let scope = null
    let looked = 0
    for (let slot = graph.firstRetainer[context], end = graph.firstRetainer[context + 1]; slot < end && looked < CONTEXT_CLOSURES; slot++) {
      const e = graph.retainerEdges[slot]
      const closure = graph.retainerSource(slot)
      if (graph.nodeTypes[closure] !== graph.nodeType.closure || graph.edgeTypes[e] !== graph.edgeType.internal || graph.edgeNames[e] !== contextEdge) continue
      const record = locations.recordOf(closure)
      if (record < 0) continue
      looked++
      const [scriptId, line, column] = locations.recordFields(record)
      const script = locations.scriptName(scriptId)
      if (script === null || (url !== null && script !== url)) return null
      if (url === null) {
        url = script
        if ((names = this.#namesOf(url, analysis)) === null) return null
      }
      const at = /** @type {ScriptNames} */ (names).offsetOf(line, column)
      const own = at < 0 ? -1 : /** @type {ScriptNames} */ (names).functionAt(at)
      if (own < 0) return null
      const parent = /** @type {ScriptNames} */ (names).parentOf(own)
      scope = scope === null ? parent : /** @type {ScriptNames} */ (names).commonScope(scope, parent)
    }
    if (names === null || scope === null) return null
    return names.declaresAll(variables, scope) ? { names, scope } : null
  }

  /**
   * The original name of a function (or class) a minifier renamed, or null: `name` as the heap
   * has it, starting at the 0-based position V8 records.
   * @param {string} url
   * @param {string} name
   * @param {{line: number, column: number}} start 0-based
   * @param {HeapAnalysis} analysis
   */
  functionName (url, name, start, analysis) {
    if (!IDENTIFIER.test(name)) return null
    const names = this.#namesOf(url, analysis)
    const at = names === null ? -1 : names.offsetOf(start.line, start.column)
    const original = at < 0 ? null : /** @type {ScriptNames} */ (names).functionName(name, at)
    return original === name ? null : original
  }

  /**
   * The names of a script's map, once per script; null for Node's own scripts, a script without
   * a usable map, and one whose whole text is not here.
   * @param {string} url
   * @param {HeapAnalysis} analysis
   */
  #namesOf (url, analysis) {
    let names = this.#names.get(url)
    if (names === undefined) {
      names = null
      if (url !== '' && !url.startsWith('node:')) {
        const file = this.#files.read(url, this.#copyOf(url, analysis))
        const loaded = this.#mapOf(url, file)
        if (loaded.map !== null && file.text !== null) names = ScriptNames.of(file.text, loaded.map)
      }
      this.#names.set(url, names)
    }
    return names
  }

  /**
   * A position in a script (an allocation profile's frame) in the original source, when the
   * script has a usable source map; null otherwise (the position stands as it ran).
   * @param {string} url the script's URL as V8 names it
   * @param {{line: number, column: number}} position 1-based
   * @param {HeapAnalysis} analysis a snapshot of the process that ran it, for its copy of the script
   * @returns {{file: string, line: number, column: number, snippet: string | null} | null}
   */
  mapPosition (url, position, analysis) {
    if (url === '' || url.startsWith('node:')) return null
    const loaded = this.#mapOf(url, this.#files.read(url, this.#copyOf(url, analysis)))
    if (loaded.map === null) return null
    const mapped = this.#mapPosition(loaded.map, position)
    return 'note' in mapped ? null : mapped
  }

  /**
   * The snapshot's copy of a script's text (a file on disk is used only when it starts with it),
   * found the first time the script is asked for: the first of its closures that leads to it.
   * @param {string} url
   * @param {HeapAnalysis} analysis
   * @returns {string | null}
   */
  #copyOf (url, analysis) {
    let text = this.#copies.get(url)
    if (text !== undefined) return text
    text = null
    let closures = this.#closures.get(analysis)
    if (closures === undefined) this.#closures.set(analysis, (closures = firstClosures(analysis)))
    for (const [id, name] of analysis.locations.scriptNames()) {
      if (name !== url) continue
      for (const ordinal of closures.get(id) ?? []) if (text === null) text = scriptSourceOf(analysis.graph, ordinal)
    }
    this.#copies.set(url, text)
    return text
  }

  /**
   * @param {Finding} finding
   * @param {SourceLocation} location
   * @param {{url: string, copy: string | null, functions: ScriptFunction[]}} script  the script's URL,
   *   the snapshot's copy of its text and the functions the heap has closures of
   * @param {HeapAnalysis} analysis
   * @returns {Finding}
   */
  #mapFinding (finding, location, { url, copy, functions }, analysis) {
    const file = this.#files.read(url, copy)
    const loaded = this.#mapOf(url, file)
    if (loaded.map === null) {
      const note = loaded.note ?? file.note
      const source = linesAround(file.text, location)
      const shown = source === null ? finding : { ...finding, source }
      return note === null ? shown : withNotes(shown, location, [note])
    }
    const mapped = this.#mapPosition(loaded.map, location)
    if ('note' in mapped) return withNotes(finding, location, [`${describeMap(loaded, url, this.#cwd)} ${mapped.note}: locations stay in the code that ran`])
    const generated = { file: file.path !== null && file.matches && this.#files.rooted ? readableScriptName(file.path, this.#cwd) : location.file, line: location.line, column: location.column }
    /** @type {SourceLocation} */
    const result = { file: mapped.file, line: mapped.line, column: mapped.column, function: location.function, generated, original: mapped }
    // A location found in the text (a write site) names the function around it as it ran.
    const start = location.generatedFunction === undefined ? functionStart(location, functions) : null
    const name = start === null ? null : this.functionName(url, location.function, start, analysis)
    if (name !== null) Object.assign(result, { function: name, generatedFunction: location.function })
    else if (location.generatedFunction !== undefined) result.generatedFunction = location.generatedFunction
    // Other sites in the same script that the signature named in its notes are mapped too.
    const before = Array.isArray(finding.evidence.notes) ? finding.evidence.notes : []
    const notes = before.map((note) => this.#mapNote(note, location.file, /** @type {TraceMap} */ (loaded.map)))
    return { ...finding, location: result, evidence: { ...finding.evidence, notes } }
  }

  /**
   * `file:line:column` of the same script in a signature's note, mapped too.
   * @param {string} note
   * @param {string} file
   * @param {TraceMap} map
   */
  #mapNote (note, file, map) {
    if (!note.includes(`${file}:`)) return note
    const pattern = new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:(\\d+):(\\d+)`, 'g')
    return note.replace(pattern, (text, line, column) => {
      const mapped = this.#mapPosition(map, { line: Number(line), column: Number(column) })
      return 'note' in mapped ? text : `${mapped.file}:${mapped.line}:${mapped.column}`
    })
  }

  /**
   * @param {string} url
   * @param {import('./script-files.js').ScriptFile} file
   * @returns {LoadedMap}
   */
  #mapOf (url, file) {
    let loaded = this.#maps.get(url)
    if (loaded === undefined) {
      const options = { scriptPath: file.path, scriptName: url, text: file.text, whole: file.whole, mapsDir: this.#mapsDir, cwd: this.#cwd }
      // An inline map in the snapshot's own copy belongs to the code that ran (a loader that
      // compiles TypeScript in memory writes one), whatever the file on disk is. Otherwise a
      // script on disk that is not the one that ran has no map worth reading: its lines moved.
      const inline = file.text !== null && sourceMappingUrl(file.text)?.startsWith('data:') === true
      loaded = !inline && file.path !== null && !file.matches && file.note !== null && readText(file.path) !== null
        ? { map: null, note: file.note, where: null }
        : loadSourceMap(options)
      this.#maps.set(url, loaded)
    }
    return loaded
  }

  /**
   * The original position of a 1-based generated one, or why there is none. The nearest mapping
   * at or before the column on that line, else the first after it (a function's start may fall
   * between a bundle's mappings).
   * @param {TraceMap} map
   * @param {{line: number, column: number}} location
   * @returns {{file: string, line: number, column: number, snippet: string | null} | {note: string}}
   */
  #mapPosition (map, location) {
    const at = { line: location.line, column: location.column - 1 }
    let position = originalPositionFor(map, { ...at, bias: GREATEST_LOWER_BOUND })
    if (position.source === null) position = originalPositionFor(map, { ...at, bias: LEAST_UPPER_BOUND })
    if (position.source === null || position.line === null || position.column === null) {
      return { note: `has no mapping for line ${location.line} column ${location.column}` }
    }
    const lines = this.#linesOf(map, position.source)
    if (lines !== null && position.line > lines.length) {
      return { note: `points past the end of ${this.#shown(position.source)} (line ${position.line} of ${lines.length})` }
    }
    const text = lines === null ? null : lines[position.line - 1].trim()
    const snippet = text === null || text === '' ? null : text.length > MAX_SNIPPET ? `${text.slice(0, MAX_SNIPPET - 1)}…` : text
    return { file: this.#shown(position.source), line: position.line, column: position.column + 1, snippet }
  }

  /**
   * An original source's lines: the map's sourcesContent, else the file on disk (under a
   * --source-root when the map names the process's paths), else null.
   * @param {TraceMap} map
   * @param {string} source a resolved source of the map
   */
  #linesOf (map, source) {
    const key = `${map.file ?? ''}\0${source}`
    let lines = this.#sources.get(key)
    if (lines === undefined) {
      let text = sourceContentFor(map, source)
      if (text === null) {
        const path = pathOfUrl(source)
        text = path === null ? null : readText(this.#files.localPath(path)) ?? readText(path)
      }
      lines = text === null ? null : text.split(/\r?\n|\r/)
      this.#sources.set(key, lines)
    }
    return lines
  }

  /**
   * An original source as people read it: a path relative to the working directory when it is on
   * this machine under it, a webpack source by its path in the project, else as the map names it.
   * @param {string} source
   */
  #shown (source) {
    // webpack names sources `webpack://<namespace>/./src/x.ts`: the path in the project is the point.
    const webpack = /^webpack:\/\/[^/]*\/(?:\.\/)?(.+)$/.exec(source)
    if (webpack !== null) return webpack[1]
    const path = pathOfUrl(source)
    if (path === null) return source
    const local = this.#files.localPath(path)
    return readableScriptName(isAbsolute(local) ? local : path, this.#cwd)
  }
}

/** Closures kept per script to find its copy: the first one nearly always leads to it. */
const CLOSURES_PER_SCRIPT = 4

/**
 * A few closures of each script, by script id, in one pass over the location records (few next
 * to the nodes: one per function object and constructor).
 * @param {HeapAnalysis} analysis
 * @returns {Map<number, number[]>}
 */
function firstClosures (analysis) {
  const { graph, locations } = analysis
  /** @type {Map<number, number[]>} */
  const closures = new Map()
  for (let record = 0; record < graph.locationCount; record++) {
    const ordinal = locations.recordOrdinal(record)
    if (graph.nodeTypes[ordinal] !== graph.nodeType.closure) continue
    const [id] = locations.recordFields(record)
    let list = closures.get(id)
    if (list === undefined) closures.set(id, (list = []))
    if (list.length < CLOSURES_PER_SCRIPT) list.push(ordinal)
  }
  return closures
}

/**
 * Where the function around a location starts (0-based): the nearest function of the location's
 * function name that starts before it. Null for an anonymous function or none found.
 * @param {SourceLocation} location
 * @param {ScriptFunction[]} functions
 * @returns {{line: number, column: number} | null}
 */
function functionStart (location, functions) {
  if (location.function === '') return null
  let nearest = null
  for (const f of functions) {
    const before = f.line + 1 < location.line || (f.line + 1 === location.line && f.column + 1 <= location.column)
    if (f.name !== location.function || !before) continue
    if (nearest === null || f.line > nearest.line || (f.line === nearest.line && f.column > nearest.column)) nearest = f
  }
  return nearest === null ? null : { line: nearest.line, column: nearest.column }
}

/**
 * @param {LoadedMap} loaded
 * @param {string} url
 * @param {string} cwd
 */
function describeMap (loaded, url, cwd) {
  return loaded.where === 'inline' || loaded.where === null ? `the inline source map of ${readableScriptName(url, cwd)}` : `source map ${readableScriptName(loaded.where, cwd)}`
}

/** Lines shown before and after a location's own. */
const CONTEXT_LINES = 3

/**
 * The lines around a location in a script's text, or null when the text does not reach it. A
 * line longer than a snippet (minified code) shows no lines at all.
 * @param {string | null} text
 * @param {SourceLocation} location
 * @returns {import('../signatures/finding.js').SourceLines | null}
 */
function linesAround (text, location) {
  if (text === null) return null
  const all = text.split('\n')
  if (location.line > all.length) return null
  const start = Math.max(1, location.line - CONTEXT_LINES)
  const lines = all.slice(start - 1, location.line + CONTEXT_LINES).map((line) => line.replace(/\r$/, ''))
  if (lines.some((line) => line.length > MAX_SNIPPET * 4)) return null
  return { file: location.file, start, lines }
}

/**
 * The finding with its location as it was and one more note.
 * @param {Finding} finding
 * @param {SourceLocation} location
 * @param {string[]} notes
 * @returns {Finding}
 */
function withNotes (finding, location, notes) {
  const before = Array.isArray(finding.evidence.notes) ? finding.evidence.notes : []
  return { ...finding, location, evidence: { ...finding.evidence, notes: [...before, ...notes] } }
}
