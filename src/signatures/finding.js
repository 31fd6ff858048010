// The shapes every signature matcher shares (design.md's `findings` rows). Types only.

/** @import {Step} from '../analysis/retainer-paths.js' */
/** @import {DiffResult, DiffDetail} from '../diff/diff-heaps.js' */
/** @import {AllocatedAt} from '../diff/alloc-stacks.js' */
/** @import {NameResolver} from '../analysis/shown-names.js' */
/** @import {CallFix} from './call-words.js' */

/**
 * Where the code involved in a finding starts, for people: 1-based, the file relative to the
 * working directory when it is under it, `node:` names kept, `file://` URLs turned into paths.
 * @typedef {object} SourceLocation
 * @property {string} file
 * @property {number} line      1-based
 * @property {number} column    1-based
 * @property {string} function  the function's name, '' when anonymous
 * @property {string} [generatedFunction]  the function's name in the code that ran, when a
 *   minifier renamed it: `function` is then the name the script's source map gives
 * @property {{file: string, line: number, column: number}} [generated]  with `original`: where the
 *   code that ran is (a compiled or bundled script); file, line and column above are the original's
 * @property {{file: string, line: number, column: number, snippet: string | null}} [original]
 *   present when the location was mapped through a source map: the source people wrote, and its
 *   line (trimmed) when the map or the disk has the text
 * @property {PackageFrame} [inside]  the growth is made inside a package that this line of the
 *   program calls (the allocation stacks say so): the package's frame it called
 */

/**
 * The frame of a package (or of Node's own code) that a program's line called, as a report shows it.
 * @typedef {object} PackageFrame
 * @property {string} package   the package's name (`ajv`, `@scope/name`), or `node` for Node's own code
 * @property {string} file
 * @property {number} line      1-based: the line of the call it made further in, else where its function starts
 * @property {number} column    1-based
 * @property {string} function  '' when anonymous
 */

/**
 * Per-snapshot numbers behind a finding. `counts` are what the signature counts (listeners,
 * entries, elements, closures, timers), one per snapshot, oldest first; `retained` are the
 * owners' retained sizes in each snapshot. `notes` are the signature's facts a person needs that
 * the counts do not say, a short phrase each ("captures res (1.2 MB)", "650 intervals of 30 s"),
 * printed one per line on the cards (evidence-notes.js builds them). Matchers add fields of their own.
 * @typedef {object} FindingEvidence
 * @property {string} unit           what `counts` count: 'listeners', 'entries', ...
 * @property {number[]} counts
 * @property {number[]} retained     bytes
 * @property {number} perStep        average growth of `counts` per step between snapshots
 * @property {number} ownerCount     owners behind the finding (a grouped row has several)
 * @property {string[]} notes        short phrases, one per card line, in reading order
 */

/**
 * One named leak: what, where, how sure, the evidence, and the fix.
 * @typedef {object} Finding
 * @property {string} signature      a stable id (`listener-accumulation`, ...), never renamed
 * @property {string} title          one sentence a person reads first
 * @property {number} confidence     0..1
 * @property {string[]} reasons      why this confidence, one short clause each
 * @property {{id: number, name: string, type: string, generatedName?: string}} owner
 * @property {Step[]} path           the owner's retainer path from the GC roots
 * @property {FindingEvidence & Record<string, unknown>} evidence
 * @property {SourceLocation | null} location
 * @property {{summary: string, snippet: string, atCall?: CallFix}} fix  atCall: the fix in a
 *   package's terms, written again at the program's call into the package once the allocation
 *   stacks find that call (pipeline/allocated-at.js); the report keeps summary and snippet only
 * @property {AllocatedAt | null} [allocatedAt]  the allocation stacks tied to it, when the agent's
 *   allocation profiles are beside the snapshots (null: profiles there, nothing tied)
 * @property {SourceLines | null} [source]  the lines around the location in the script that ran,
 *   when its text is known and it was not mapped (a mapped location has `original.snippet`)
 * @property {{kind: string, holder: string, bytes: number, bytesEach: number}} [native]  the
 *   finding's entries hold native memory that grew (diff/memory-split.js): its kind, the class
 *   holding it, the kind's growth and the bytes each holds; the fix then releases each resource
 * @property {number[]} [members]  ordinals in the last snapshot of the new objects the finding
 *   counts, from a matcher that counts objects no owner dominates (timers in a ring, sockets held
 *   by their handles); for the others, the new objects their owner holds. For the run, never in a
 *   report: which findings share a cause is asked of them (pipeline/shared-causes.js)
 * @property {number[]} [holders]  with `members`: the program's objects that hold them (a client
 *   per socket), which may hold another finding's objects too
 * @property {HeldFinding[]} [also]  findings whose objects this one's hold: one cause, one card
 */

/**
 * A finding whose objects another finding's objects own: evidence of that finding, not a leak of
 * its own (pipeline/shared-causes.js).
 * @typedef {Finding & {heldBy: {count: number, share: number, holderClass: string, relation: 'held' | 'indexes'}}} HeldFinding
 *   heldBy: how many of its new objects the other finding's objects hold (by a property or an
 *   element, or as the only way to them), that share of them, and the class holding most; or with
 *   relation 'indexes', how many of its new objects point at the other finding's objects, which
 *   keep more alive than they do (a second index of the same records), and those objects' class
 */

/**
 * Lines of a script around a location, for a report that shows the code.
 * @typedef {object} SourceLines
 * @property {string} file    as the location names it
 * @property {number} start   1-based number of the first line
 * @property {string[]} lines
 */

/**
 * What a matcher reads. `candidates` are the indexes of the `result.growth` rows no earlier matcher
 * has claimed, in rank order.
 * @typedef {object} SignatureInput
 * @property {DiffResult} result
 * @property {DiffDetail} detail
 * @property {number[]} candidates
 * @property {string} cwd            file locations are shown relative to this directory
 * @property {NameResolver} names    the names people wrote (src/sources/ reads them), for what a
 *                                   finding shows, and the scripts' whole texts
 */

/**
 * A finding tied to the growth row it explains (-1 when it stands alone).
 * @typedef {object} Match
 * @property {number} group
 * @property {Finding} finding
 * @property {number[]} [also]  other growth rows the same finding explains: claimed, no finding of their own
 */

/**
 * A leak signature: a pure function of the diff.
 * @typedef {object} Signature
 * @property {string} id
 * @property {(input: SignatureInput) => Match[]} match
 */

export {}
