// Findings: the named leaks, each with its evidence, the code it points at and how to fix it. The
// evidence's declared part is copied by name; the rest is the signature's own record, carried as
// JSON would carry it.
/** @import {Finding as SignatureFinding, FindingEvidence} from '../../signatures/finding.js' */
/** @import {AllocatedAt} from './allocations.js' */
/** @import {Location, SourceLines} from './locations.js' */
/** @import {Owner, PathStep} from './path-steps.js' */
import { allocatedAtModel } from './allocations.js'
import { locationModel, sourceLinesModel } from './locations.js'
import { optional } from './optional-field.js'
import { ownerModel, pathStepModel } from './path-steps.js'

/**
 * The evidence behind a finding. The declared part is the same for every signature: `counts` are
 * what it counts (one per snapshot, oldest first), `retained` the owners' retained bytes per
 * snapshot, `notes` its facts as short phrases. The optional declared fields are those a
 * renderer or the report layer reads. Any other key is the signature's own record (a JSON value:
 * `event`, `newTimers`, `capturedVariables`, ...), carried as the signature wrote it, in its order;
 * the schema does not fix those, so programs should read the declared part.
 * @typedef {object} DeclaredEvidence
 * @property {string} unit           what `counts` count: 'listeners', 'entries', ...
 * @property {number[]} counts
 * @property {number[]} retained     bytes
 * @property {number} perStep        average growth of `counts` per step
 * @property {number} ownerCount     owners behind the finding
 * @property {string[]} notes        short phrases, one per card line, in reading order
 * @property {string | null} [locationRole]  what the code at the location is: 'listener', 'module scope', ...
 * @property {string[]} [keepsAlive]   what each listener keeps alive
 * @property {number} [bytesPerListener]
 * @property {number} [bytesPerEntry]
 * @property {string[]} [keyClasses]   a collection's key classes
 * @property {string[]} [valueClasses] its value classes
 * @property {number} [bytesPerElement]
 * @property {string[]} [elementClasses]  an array's element classes
 * @property {string} [holderClass]    the class of the object that holds the records
 */

/**
 * The declared part, and the signature's own keys: JSON values (null, booleans, numbers, strings,
 * arrays and objects of them), unknown to the model until read.
 * @typedef {DeclaredEvidence & {[key: string]: unknown}} Evidence
 */

/**
 * One named leak.
 * @typedef {object} Finding
 * @property {string} signature   a stable id, never renamed
 * @property {string} title
 * @property {number} confidence  0..1
 * @property {string[]} reasons
 * @property {Owner} owner
 * @property {PathStep[]} path
 * @property {Evidence} evidence
 * @property {Location | null} location
 * @property {{summary: string, snippet: string}} fix
 * @property {AllocatedAt | null} [allocatedAt]  with allocation profiles (null: nothing tied)
 * @property {SourceLines | null} [source]  lines around an unmapped location, when its text is known
 * @property {NativeHold} [native]  the entries hold native memory that grew; `fix` then releases each resource
 * @property {HeldFinding[]} [also]  findings whose new objects this finding's objects hold: one
 *   cause, so one card and one fix (this one's); each is complete, with how it is held
 */

/**
 * A finding another one's objects hold (a client's heartbeat timers, under the client's sockets).
 * @typedef {Finding & {heldBy: HeldBy}} HeldFinding
 */

/**
 * @typedef {object} HeldBy
 * @property {number} count        its new objects that the other finding's objects hold
 * @property {number} share        that share of its new objects, 0..1
 * @property {string} holderClass  the class of the objects that hold most of them; with 'indexes',
 *   of the objects its own point at
 * @property {'held' | 'indexes'} relation  held: the other finding's objects hold its new objects;
 *   indexes: its new objects point at the other finding's, which keep more alive than they do (a
 *   second index of the same records: freeing those frees these)
 */

/**
 * @typedef {object} NativeHold  native memory a finding's entries hold (diff/memory-split.js)
 * @property {string} kind       the native node kind, as the snapshot names it (`Node / zlib_memory`)
 * @property {string} holder     the class of the entries that hold it (`Deflate`)
 * @property {number} bytes      the kind's growth, first snapshot to last
 * @property {number} bytesEach  bytes each holder keeps, in the last snapshot
 */

/**
 * @param {SignatureFinding} found
 * @returns {Finding}
 */
export function findingModel (found) {
  return {
    ...ownFields(found),
    ...optional('also', found.also?.map((held) => ({
      ...ownFields(held),
      heldBy: { count: held.heldBy.count, share: held.heldBy.share, holderClass: held.heldBy.holderClass, relation: held.heldBy.relation }
    })))
  }
}

/**
 * Every field of a finding but `also`.
 * @param {SignatureFinding} found
 * @returns {Finding}
 */
function ownFields (found) {
  return {
    signature: found.signature,
    title: found.title,
    confidence: found.confidence,
    reasons: [...found.reasons],
    owner: ownerModel(found.owner),
    path: found.path.map(pathStepModel),
    evidence: evidence(found.evidence),
    location: found.location && locationModel(found.location),
    fix: { summary: found.fix.summary, snippet: found.fix.snippet },
    ...optional('allocatedAt', found.allocatedAt === undefined ? undefined : found.allocatedAt && allocatedAtModel(found.allocatedAt)),
    ...optional('source', found.source === undefined ? undefined : found.source && sourceLinesModel(found.source)),
    ...optional('native', found.native && { kind: found.native.kind, holder: found.native.holder, bytes: found.native.bytes, bytesEach: found.native.bytesEach })
  }
}

/**
 * The declared part by name; the signature's own keys as JSON values. Keys keep the signature's order.
 * @param {FindingEvidence & Record<string, unknown>} found
 * @returns {Evidence}
 */
function evidence (found) {
  /** @type {DeclaredEvidence} */
  const declared = {
    unit: found.unit,
    counts: [...found.counts],
    retained: [...found.retained],
    perStep: found.perStep,
    ownerCount: found.ownerCount,
    notes: [...found.notes],
    ...optional('locationRole', stringOrNull(found.locationRole)),
    ...optional('keepsAlive', strings(found.keepsAlive)),
    ...optional('bytesPerListener', number(found.bytesPerListener)),
    ...optional('bytesPerEntry', number(found.bytesPerEntry)),
    ...optional('keyClasses', strings(found.keyClasses)),
    ...optional('valueClasses', strings(found.valueClasses)),
    ...optional('bytesPerElement', number(found.bytesPerElement)),
    ...optional('elementClasses', strings(found.elementClasses)),
    ...optional('holderClass', typeof found.holderClass === 'string' ? found.holderClass : undefined)
  }
  /** @type {Record<string, unknown>} */
  const model = {}
  for (const [key, value] of Object.entries(found)) model[key] = Object.hasOwn(declared, key) ? declared[/** @type {keyof DeclaredEvidence} */ (key)] : jsonValue(value)
  for (const [key, value] of Object.entries(declared)) if (!Object.hasOwn(model, key)) model[key] = value
  return /** @type {Evidence} */ (model)
}

/**
 * A copy of a value as JSON would carry it: what JSON cannot hold is left out (undefined).
 * @param {unknown} value
 * @returns {unknown}
 */
function jsonValue (value) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (Array.isArray(value)) return value.map((item) => jsonValue(item) ?? null)
  if (typeof value !== 'object') return undefined
  /** @type {Record<string, unknown>} */
  const copy = {}
  for (const [key, item] of Object.entries(value)) {
    const json = jsonValue(item)
    if (json !== undefined) copy[key] = json
  }
  return copy
}

/** @param {unknown} value */
function stringOrNull (value) {
  return value === null || typeof value === 'string' ? value : undefined
}

/** @param {unknown} value */
function strings (value) {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined
}

/** @param {unknown} value */
function number (value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}
