// The words of a finding on a collection Node owns: what the card calls it and its fix, for the
// module loader's caches, Node's lists of records it makes for the program (async hooks), a
// module's children reloaded through require.cache, and any other Node-owned collection. The
// program cannot bound, clear or swap these, so each fix says what the program does that makes
// Node add an entry.

import { dirname, isAbsolute, relative } from 'node:path'
import { cutMiddle } from '../../cut-text.js'
import { MAX_KEY_CHARS } from '../collection-growth.js'
import { readableScriptName } from '../source-location.js'
import { moduleSpecifier } from './module-cache.js'
/** @import {NodeOwner} from '../node-owned.js' */
/** @import {NodeRecords} from './node-records.js' */

/**
 * The card of a module loader cache that grows: each new URL is a new module, and ES modules are
 * never unloaded.
 * @param {string[]} sampleKeys  whole keys: the specifier is read from them, and they are cut for showing here
 * @param {string} cwd
 * @param {string | null} [importer] the importing file as the card shows it, to spell the specifier from
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function moduleCacheFix (sampleKeys, cwd, importer = null) {
  // The program's own spelling (the resolve cache's `./a.mjs`) before the resolved URL.
  const specifiers = [...new Set(sampleKeys.map((key) => moduleSpecifier(key)).filter((s) => s !== null))]
    .sort((a, b) => Number(a.startsWith('file:')) - Number(b.startsWith('file:')))
  const target = specifiers.length === 0 ? './module.mjs' : readableSpecifier(specifiers[0], cwd, importer)
  const shown = [...sampleKeys].sort((a, b) => Number(a.startsWith('file:')) - Number(b.startsWith('file:'))).slice(0, 2).map((key) => JSON.stringify(cutMiddle(key.replace(/::.*$/, ''), MAX_KEY_CHARS))).join(', ')
  return {
    subject: 'Node\'s ES module loader keeps a new module per import',
    summary: `the program imports ${new Set(specifiers.map((s) => s.replace(/^.*[\\/]/, ''))).size === 1 ? target : 'a module'} under a new specifier each time (${shown}, ...): every distinct URL is a new module, and ES modules are never unloaded, so Node's loader keeps each one (its code, its scope and everything that scope holds) for the life of the process. Import it once and reuse it; for code that must really be reloaded, run it in a Worker and terminate the old one, or in a vm context the program can drop.`,
    snippet: `// once, at start-up (or one cached import() promise)\nconst mod = await import('${target}')\n// to reload for real: new Worker(...) per version, then worker.terminate() the old one`
  }
}

/**
 * @param {string} specifier
 * @param {string} cwd
 * @param {string | null} importer
 */
function readableSpecifier (specifier, cwd, importer) {
  if (!specifier.startsWith('file:')) return specifier
  const file = readableScriptName(specifier, cwd)
  const name = importer === null || isAbsolute(file) !== isAbsolute(importer) ? file : relative(dirname(importer), file)
  return name.startsWith('/') || name.startsWith('.') ? name : `./${name}`
}

/**
 * What Node's own records are, by the class Node names them: how one joins the list, what a pile
 * of them costs beyond memory, and for those the program takes out with a call of its own (the
 * performance timeline's entries), what they were never given and the remedy.
 * The API call that makes one, for records that hold nothing of the program's to place them by.
 * @type {Record<string, {joins: string, cost?: string, never?: string, list?: string, release?: string, made?: {receiver: string, method: string},
 *   remedy?: {summary: string, snippet: string}}>}
 */
const NODE_RECORDS = {
  AsyncHook: { joins: 'enabled', cost: 'every async operation in the process calls each enabled hook, so the process also gets slower with every one' },
  PerformanceMark: {
    joins: 'buffered',
    never: 'never cleared',
    list: 'buffer of performance marks',
    release: 'performance.clearMarks()',
    made: { receiver: 'performance', method: 'mark' },
    remedy: {
      summary: 'Node keeps every performance.mark() on its timeline until performance.clearMarks() takes it out. Clear a request\'s marks once they are measured (performance.clearMarks(name)), or time the request with performance.now() and keep only the numbers.',
      snippet: 'performance.mark(startName)\n// ... the work, then once it is measured:\nperformance.clearMarks(startName)\nperformance.clearMarks(endName)'
    }
  },
  PerformanceMeasure: {
    joins: 'buffered',
    never: 'never cleared',
    list: 'buffer of performance measures',
    release: 'performance.clearMeasures()',
    made: { receiver: 'performance', method: 'measure' },
    remedy: {
      summary: 'Node keeps every performance.measure() on its timeline until performance.clearMeasures() takes it out. Read the duration the call returns and clear it (performance.clearMeasures(name)), or time the request with performance.now() and keep only the numbers.',
      snippet: 'const { duration } = performance.measure(name, start, end)\nperformance.clearMeasures(name)'
    }
  }
}

/**
 * How one record joined Node's list ("enabled" for an async hook, else "made").
 * @param {string} elementClass
 */
export function joinVerb (elementClass) {
  return NODE_RECORDS[elementClass]?.joins ?? 'made'
}

/**
 * What the program never did to the records: "never cleared" for the timeline's entries, "never
 * disabled" when a record offers disable(), else "never ended".
 * @param {NodeRecords} records
 */
export function neverText ({ elementClass, end }) {
  return NODE_RECORDS[elementClass]?.never ?? (end === null ? 'never ended' : `never ${end}d`)
}

/**
 * The call that takes records of this class out of Node's list, when the program has one
 * (`performance.clearMarks()`), else null.
 * @param {string} elementClass
 * @returns {string | null}
 */
export function releaseCall (elementClass) {
  return NODE_RECORDS[elementClass]?.release ?? null
}

/**
 * The API call that makes records of this class (`performance.mark()`), when Node's records of it
 * hold nothing of the program's, else null.
 * @param {string} elementClass
 * @returns {{receiver: string, method: string} | null}
 */
export function recordMaker (elementClass) {
  return NODE_RECORDS[elementClass]?.made ?? null
}

/**
 * The card of a Node-owned list of records the program makes per call and never ends.
 * @param {NodeOwner} owner
 * @param {NodeRecords} records
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function nodeRecordsFix (owner, records) {
  const { elementClass, callbacks, library, end } = records
  const known = NODE_RECORDS[elementClass]
  const joins = joinVerb(elementClass)
  const subject = known?.list === undefined
    ? `Node's own list of ${known === undefined ? '' : `${joins} `}${elementClass} objects (${owner.module})`
    : `Node's ${known.list} (${owner.module})`
  if (known?.remedy !== undefined) return { subject, ...known.remedy }
  const from = callbacks === null
    ? ''
    : ` Their callbacks come from ${library === null ? 'the program' : library} (${callbacks.file}:${callbacks.line}${callbacks.function === '' ? '' : `, ${callbacks.function}`}): ${library === null ? 'that code runs' : `the program calls into ${library}`} in a way that ${joins === 'made' ? 'makes' : joins.replace(/d$/, 's')} a new one each time (a per-request setup call).`
  const variable = elementClass.charAt(0).toLowerCase() + elementClass.slice(1)
  return {
    subject,
    summary: `each new ${elementClass} is ${joins} per call and ${neverText(records)}, and Node keeps every one${known?.cost === undefined ? '' : `: ${known.cost}`}.${from} Make it once at start-up and reuse it${end === null ? '' : `, or call its ${end}() when done`}.`,
    snippet: `// once, at start-up, not per request\nconst ${variable} = /* the call that makes the ${elementClass} */${end === null ? '' : `\n// or, when it is no longer needed:\n${variable}.${end}()`}`
  }
}

/**
 * The card of a Node-owned collection nothing more specific explains.
 * @param {NodeOwner} owner
 * @param {string} name
 * @param {string[]} sampleKeys
 * @param {string[]} valueClasses
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function nodeCollectionFix (owner, name, sampleKeys, valueClasses) {
  const keys = sampleKeys.length > 0 ? ` New keys look like ${sampleKeys.map((k) => JSON.stringify(k)).join(', ')}.` : ''
  const values = valueClasses.length > 0 ? ` New entries hold ${valueClasses.join(', ')}.` : ''
  return {
    subject: `${name} (Node's own, in ${owner.className} of ${owner.module})`,
    summary: `this collection is Node's own: the program cannot bound or clear it, but it is what the program asks of Node that adds an entry each time.${keys}${values} Find the call that passes something new each time (the keys above) and make it once, or with values from a small fixed set.`,
    snippet: '// make this call once at start-up and reuse its result, not once per request'
  }
}

/**
 * The card of a module reloaded through require.cache.
 * @param {{file: string | null, parent: string | null}} reload
 * @returns {{subject: string, summary: string, snippet: string}}
 */
export function reloadFix ({ file, parent }) {
  const what = file ?? 'a CommonJS module'
  const target = file === null ? './module.js' : `./${file.replace(/^.*[\\/]/, '')}`
  return {
    subject: `${parent === null ? 'A module' : parent}'s module.children (Node's own list of the modules it required)`,
    summary: `the program deletes ${what} from require.cache and requires it again, so each require() loads a new copy, and the module that requires it keeps every copy in its module.children, which Node never takes one out of: each copy's exports, code and scope stay for the life of the process. Require it once and reuse it. To pick up edits, reload only when the file changes and take the old copy out of the parent's children too, or run the reloaded code in a Worker and terminate the old one.`,
    snippet: `// once, at start-up\nconst mod = require('${target}')\n// to reload: drop the old copy from its parent's children as well\nconst old = require.cache[file]\ndelete require.cache[file]\nparent.children.splice(parent.children.indexOf(old), 1)`
  }
}
