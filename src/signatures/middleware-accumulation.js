// middleware-accumulation: code running per request registers a middleware, handler or
// interceptor on a shared app, router or client (`app.use(fn)` inside a route handler, an axios
// interceptor added per call): the object's list of handlers gains an entry per request, and every
// later request runs them all. Recognised by shape, not by library: an array that keeps gaining
// functions, or records holding a function (express's Layer `{handle}`, axios' `{fulfilled,
// rejected}`), most of them from one source location, kept under a handler-list name or as records
// on a long-lived object. It runs before listener-accumulation, which would take an array of
// records under `handlers` for an observer list, so it leaves alone what is that signature's: bare
// functions under listener-like names, records of listener fields (fn, callback, handler) and
// anything under an emitter's `_events`. Closures in a module-level list are closure-retention's.
// What the entries hold is read in middleware/handler-records.js; the words are in
// middleware/middleware-words.js.

import { collectionGrowth } from './collection-growth.js'
import { judgeGrowth, perStepOf } from './growth-evidence.js'
import { RECORD_FIELDS, capturedVariables, dominantLocation, handlerOf } from './middleware/handler-records.js'
import { MIDDLEWARE_REASONS, REGISTER_ROLE, middlewareFix, middlewareNotes, middlewareTitle } from './middleware/middleware-words.js'
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {Match, Signature, SignatureInput} from './finding.js' */

export const ID = 'middleware-accumulation'

/** @type {Signature} */
export const middlewareAccumulation = { id: ID, match: matchMiddlewareAccumulation }

/** Names under which apps, routers and clients keep their handler lists. */
const LIST_NAMES = /(?:stack|middlewares?|interceptors|plugins|layers|pipeline|chain|filters)$/i
/** Listener-like list names: a list of bare functions under them is listener-accumulation's. */
const RECORD_LIST_NAMES = /(?:handlers|hooks)$/i
/** Of the new elements, at least this share must be functions or handler records ... */
const MIN_FUNCTION_SHARE = 0.8
/** ... and at least this share of those functions must come from one location. */
const MIN_LOCATION_SHARE = 0.5
/** Property steps at the end of the path named in the title (`client.interceptors.request.handlers`). */
const MAX_NAME_STEPS = 4

/**
 * @param {SignatureInput} input
 * @returns {Match[]}
 */
export function matchMiddlewareAccumulation (input) {
  const { detail, cwd, names } = input
  const last = detail.analyses[detail.analyses.length - 1]
  /** @type {Match[]} */
  const matches = []
  for (const g of input.candidates) {
    const growth = collectionGrowth(input, g, ['array'])
    if (growth === null || growth.newValues.length === 0) continue
    const { owner, path, counts, retained, share } = growth

    /** @type {number[]} */
    const functions = []
    /** @type {Map<string, number>} the field each record's function was taken from */
    const fields = new Map()
    /** @type {Map<string, number>} every field of the records that holds a function */
    const functionFields = new Map()
    for (const element of growth.newValues) {
      const found = handlerOf(last, element)
      if (found === null) continue
      functions.push(found.fn)
      if (found.field !== '') fields.set(found.field, (fields.get(found.field) ?? 0) + 1)
      for (const field of found.fields) functionFields.set(field, (functionFields.get(field) ?? 0) + 1)
    }
    const functionShare = functions.length / growth.newValues.length
    if (functionShare < MIN_FUNCTION_SHARE) continue
    const { location, fromLocation } = dominantLocation(last, functions, cwd, names)
    if (location === null || fromLocation / functions.length < MIN_LOCATION_SHARE) continue

    const listName = lastName(path)
    const [main] = [...fields].sort((a, b) => b[1] - a[1])
    const records = main !== undefined && RECORD_FIELDS.test(main[0]) && main[1] === functions.length
    const recordFields = [...functionFields].sort((a, b) => b[1] - a[1]).map(([name]) => name)
    const namedLikeList = listName !== null && (LIST_NAMES.test(listName) || (records && RECORD_LIST_NAMES.test(listName)))
    // An emitter's listener list (`_events` or `_events[event]`) is listener-accumulation's. An
    // `_events` further up the path is only the way there: a server's request listener reaching the
    // app or the client whose list grows (a client made in a factory, held by the handler alone).
    if (path.slice(-2).some((step) => step.edge === '_events')) continue
    if (!namedLikeList && !(records && onObject(last, path))) continue

    const holderStep = path.length >= 2 ? path[path.length - 2] : null
    const holderClass = holderStep === null ? '' : holderStep.node
    const where = dottedName(path) ?? `${owner.name} @${owner.id}`
    const added = counts[counts.length - 1] - counts[0]
    const bytesEach = (retained[retained.length - 1] - retained[0]) / Math.max(1, added)
    const variables = capturedVariables(last, functions, names)
    const locationShare = fromLocation / functions.length
    const facts = [
      { weight: 0.1 * share, reason: MIDDLEWARE_REASONS.share(share) },
      { weight: locationShare >= 0.8 ? 0.1 : 0.05, reason: MIDDLEWARE_REASONS.location(locationShare, location) }
    ]
    if (namedLikeList && listName !== null) facts.push({ weight: 0.05, reason: MIDDLEWARE_REASONS.listName(listName) })
    if (records) facts.push({ weight: 0.03, reason: MIDDLEWARE_REASONS.records(recordFields) })
    const { confidence, reasons } = judgeGrowth(counts, facts)
    const interceptor = recordFields.includes('fulfilled') || recordFields.includes('rejected') || /interceptor/i.test(where)
    matches.push({
      group: g,
      finding: {
        signature: ID,
        title: middlewareTitle(interceptor, where, holderClass, counts),
        confidence,
        reasons,
        owner,
        path,
        evidence: {
          unit: 'handlers',
          counts,
          retained,
          perStep: perStepOf(counts),
          ownerCount: growth.ownerCount,
          newHandlers: functions.length,
          fromLocation,
          recordFields,
          holderClass,
          bytesPerHandler: Math.round(bytesEach),
          capturedVariables: variables,
          locationRole: REGISTER_ROLE,
          notes: middlewareNotes({ fromLocation, handlers: functions.length, recordFields, bytesEach, variables })
        },
        location,
        fix: middlewareFix(dottedName(path), interceptor)
      }
    })
  }
  return matches
}

/**
 * The name of the array: the property or variable the path ends in.
 * @param {Step[]} path
 */
function lastName (path) {
  const step = path[path.length - 1]
  return step && (step.edgeType === 'property' || step.edgeType === 'context') ? step.edge : null
}

/**
 * `app.stack`, `client.interceptors.request.handlers`: the names of the path's last steps, or null.
 * @param {Step[]} path
 */
function dottedName (path) {
  const names = []
  for (let i = path.length - 1; i >= 0 && names.length < MAX_NAME_STEPS; i--) {
    const step = path[i]
    if (step.edgeType !== 'property' && step.edgeType !== 'context') break
    names.unshift(step.edge)
    if (step.edgeType === 'context') break
  }
  return names.length === 0 ? null : names.join('.')
}

/**
 * Whether the array is a property of an object (an app, router or client), not a variable.
 * @param {HeapAnalysis} analysis
 * @param {Step[]} path
 */
function onObject (analysis, path) {
  if (path.length < 2 || path[path.length - 1].edgeType !== 'property') return false
  const holder = analysis.graph.findOrdinalById(path[path.length - 2].id)
  return holder >= 0 && analysis.graph.nodeTypes[holder] === analysis.graph.nodeType.object && analysis.graph.nodeName(holder) !== 'system / Context'
}
