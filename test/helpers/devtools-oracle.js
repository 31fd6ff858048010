/**
 * Chrome DevTools' own heap snapshot code, run in Node, as the reference our engine is tested against.
 *
 * What runs: the worker code of the npm package `chrome-devtools-frontend` (the exact version pinned in
 * package.json's devDependencies, 1.0.1705227 when this was written), unmodified:
 *   front_end/entrypoints/heap_snapshot_worker/HeapSnapshotLoader.ts  (string chunks -> typed arrays)
 *   front_end/entrypoints/heap_snapshot_worker/HeapSnapshot.ts        (JSHeapSnapshot.initialize and aggregates)
 *   front_end/models/heap_snapshot/HeapSnapshotModel.ts, front_end/core/platform/*, and
 *   front_end/core/text_utils/TextUtils.ts (for BalancedJSONTokenizer, which reads the `snapshot` header).
 * esbuild bundles them once per checkout into node_modules/.cache/leakdiff-oracle/, keyed by the package
 * version and by this file's content.
 *
 * What is shimmed, at bundle time only:
 * - core/i18n/i18n.js: only `serializeUIString` is used (progress messages, which nobody listens to here);
 *   the real module pulls in the locale bundles.
 * - core/text_utils/text_utils.js: re-exports TextUtils.ts only; TextUtils.ts's imports of ContentData.js and
 *   ContentProvider.js (which reach core/common) become empty classes that the loader never touches.
 * - models/heap_snapshot/heap_snapshot.js: re-exports HeapSnapshotModel.ts only (the barrel also loads the
 *   UI-side worker proxy).
 * - `Promise.withResolvers` (Node 22+) becomes a bundle-local function, so the test process's globals stay
 *   those of Node 20 and src/ cannot come to depend on a polyfill by accident.
 * - `console.warn` is a no-op inside the bundle: DevTools prints its "unreachable nodes" reports with it;
 *   the oracle collects those reports from the message port instead and returns them as `problems`.
 * DevTools computes dominators and retained sizes on a second worker. Here the secondary side
 * (SecondaryInitManager) runs in the same thread on a MessageChannel, the way DevTools' own
 * createJSHeapSnapshotForTesting does: the same code on the same data, without a worker.
 *
 * Why a test-only dependency: the package is the DevTools front end (about 80 MB unpacked, TypeScript sources).
 * leakdiff reimplements the few algorithms it needs over its own flat arrays; this file only lets the tests
 * prove that the reimplementation shows the numbers a user sees in Chrome for the same file.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { deserialize, serialize } from 'node:v8'
import { threadId } from 'node:worker_threads'
import { UNPACKED_DIR } from './fixture-snapshots.js'

// Kept results are DevTools' answers as this file asks for them: a change here asks again.
const ORACLE_HASH = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 12)

const require = createRequire(import.meta.url)
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PACKAGE_JSON = require.resolve('chrome-devtools-frontend/package.json')
const FRONT_END = join(dirname(PACKAGE_JSON), 'front_end')

/** The version of chrome-devtools-frontend whose code the oracle runs. */
export const DEVTOOLS_FRONTEND_VERSION = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).version

const CACHE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'leakdiff-oracle')
// Big enough to keep the chunk count low, small enough to look like DevTools' streamed input.
const CHUNK_CHARS = 1 << 20

const ENTRY = `
export { HeapSnapshotLoader } from './entrypoints/heap_snapshot_worker/HeapSnapshotLoader.js'
export { SecondaryInitManager } from './entrypoints/heap_snapshot_worker/HeapSnapshot.js'
export * as HeapSnapshotModel from './models/heap_snapshot/HeapSnapshotModel.js'
`

const BANNER = `
const __leakdiffWithResolvers = () => {
  let resolve, reject
  const promise = new Promise((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}
const __leakdiffDropWarning = () => {}
`

/** @type {Record<string, string>} */
const SHIMS = {
  i18n: 'export const i18n = { serializeUIString: (string, values = {}) => JSON.stringify({ string, values }) }',
  'text-utils': `export * as TextUtils from ${JSON.stringify(join(FRONT_END, 'core/text_utils/TextUtils.ts'))}`,
  'text-utils-content': 'export class ContentData {}\nexport class SearchMatch {}',
  'heap-snapshot-model': `export * as HeapSnapshotModel from ${JSON.stringify(join(FRONT_END, 'models/heap_snapshot/HeapSnapshotModel.ts'))}`
}

/** @type {import('esbuild').Plugin} */
const shimPlugin = {
  name: 'leakdiff-devtools-shims',
  setup (build) {
    const shim = (/** @type {string} */ path) => ({ path, namespace: 'leakdiff-shim' })
    build.onResolve({ filter: /\/core\/i18n\/i18n\.js$/ }, () => shim('i18n'))
    build.onResolve({ filter: /\/core\/text_utils\/text_utils\.js$/ }, () => shim('text-utils'))
    build.onResolve({ filter: /\/models\/heap_snapshot\/heap_snapshot\.js$/ }, () => shim('heap-snapshot-model'))
    build.onResolve({ filter: /^\.\/(ContentData|ContentProvider)\.js$/ }, (args) =>
      args.importer.endsWith(join('core', 'text_utils', 'TextUtils.ts')) ? shim('text-utils-content') : undefined)
    build.onLoad({ filter: /.*/, namespace: 'leakdiff-shim' }, (args) =>
      ({ contents: SHIMS[args.path], loader: 'js', resolveDir: FRONT_END }))
  }
}

/** @type {Promise<any> | undefined} */
let workerModule

/**
 * Bundles (once per checkout) and imports DevTools' heap snapshot worker code.
 * @returns {Promise<{HeapSnapshotLoader: any, SecondaryInitManager: any, HeapSnapshotModel: any}>}
 */
export function loadDevtoolsWorker () {
  workerModule ??= bundleWorker().then((file) => import(pathToFileURL(file).href))
  return workerModule
}

async function bundleWorker () {
  const ownSource = readFileSync(fileURLToPath(import.meta.url))
  const hash = createHash('sha256').update(ownSource).digest('hex').slice(0, 12)
  const file = join(CACHE_DIR, `chrome-devtools-frontend-${DEVTOOLS_FRONTEND_VERSION}-${hash}.mjs`)
  if (existsSync(file)) return file
  const { build } = await import('esbuild')
  const result = await build({
    stdin: { contents: ENTRY, loader: 'ts', resolveDir: FRONT_END, sourcefile: 'leakdiff-oracle-entry.ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'silent',
    banner: { js: BANNER },
    define: { 'Promise.withResolvers': '__leakdiffWithResolvers', 'console.warn': '__leakdiffDropWarning' },
    plugins: [shimPlugin]
  })
  mkdirSync(CACHE_DIR, { recursive: true })
  // Test files run in parallel processes: write aside and rename, so nobody imports half a file.
  const partial = `${file}.${process.pid}-${threadId}.tmp`
  writeFileSync(partial, result.outputFiles[0].contents)
  renameSync(partial, file)
  return file
}

/**
 * @typedef {object} OracleClass One row of DevTools' Summary view ("Constructor" grouping, no filter).
 * @property {string} name  the Constructor column: `Map`, `Function`, `(string)`, `{alpha, beta}`, `Detached Node / …`
 * @property {string} key   DevTools' public class key: `,<name>`, or `<scriptId>,<line>,<column>,<name>` (0-based
 *                          line/column) for `object` nodes with a location, such as class instances
 * @property {number} count  objects with shallow size > 0 (after DevTools' shallow-size reassignment)
 * @property {number} self   the Shallow Size column, bytes (sum of reassigned self sizes)
 * @property {number} retained the Retained Size column, bytes (`maxRet`: sum over the class's objects that have
 *                          no dominator-tree ancestor of the same class key)
 * @property {number} distance the Distance column: the smallest distance among the class's objects
 */

/**
 * @typedef {object} OracleNodes Per-node results; every array is indexed by node ordinal (file order).
 * @property {Uint32Array} ids         V8 object ids
 * @property {Float64Array} self       self size after DevTools' shallow-size reassignment (format doc 4.5)
 * @property {Float64Array} retained   retained size
 * @property {Uint32Array} dominator   ordinal of the immediate dominator (the root's is the root)
 * @property {Uint32Array} dominatorId id of the immediate dominator (the root's is the root's id)
 * @property {Int32Array} distance     distance; >= 100000000 for system-only nodes, -5 if none was assigned
 * @property {string[]} className      the node's class name (Summary "Constructor" name)
 * @property {string[]} classKey       the node's public class key, as in {@link OracleClass}
 */

/**
 * @typedef {object} OracleResult
 * @property {string} file
 * @property {string} devtoolsVersion
 * @property {number} nodeCount
 * @property {number} edgeCount
 * @property {number} rootOrdinal
 * @property {number} totalSize the root's retained size (DevTools' "Total" and Statistics total)
 * @property {{total: number, native: {total: number, typedArrays: number}, v8heap: {total: number, code: number,
 *   jsArrays: number, strings: number, system: number}}} statistics DevTools' Statistics view
 * @property {OracleClass[]} classes sorted by retained size (descending), then key
 * @property {OracleNodes} nodes
 * @property {string[]} problems DevTools' problem reports (unreachable nodes), one line per entry
 */

/** @type {Map<string, Promise<OracleResult>>} */
const results = new Map()

/**
 * Runs DevTools' loader and full JSHeapSnapshot initialization on a snapshot file; cached per path.
 * For a fixture snapshot that test threads share (a committed case unpacked in
 * node_modules/.cache/, or a program run in LEAKDIFF_FIXTURE_DIR: see fixture-snapshots.js), the
 * result is also kept next to the file, named by DevTools' version, so that DevTools' code runs on
 * a snapshot once however many test files check it, and once per checkout for committed ones. Any
 * other file (a test's changed copy of a fixture, written anew in a temporary directory each run)
 * is kept by its bytes' hash (contentCached): about a second of CPU a file, once per checkout.
 * @param {string} file path of a .heapsnapshot file (small: it is read into one string)
 * @returns {Promise<OracleResult>}
 */
export function runDevtoolsOracle (file) {
  const path = resolve(file)
  let result = results.get(path)
  if (!result) {
    const shared = process.env.LEAKDIFF_FIXTURE_DIR
    const kept = [UNPACKED_DIR, shared].some((dir) => dir !== undefined && path.startsWith(resolve(dir) + sep))
    result = kept ? analyseShared(path) : contentCached(path)
    results.set(path, result)
  }
  return result
}

/**
 * The oracle's result from the file beside the snapshot, or computed and written there. Two test
 * processes may both compute it; each writes aside and renames, so a reader sees one whole file.
 * v8.serialize keeps the typed arrays as they are.
 * @param {string} path
 * @returns {Promise<OracleResult>}
 */
async function analyseShared (path) {
  const cached = `${path}.devtools-${DEVTOOLS_FRONTEND_VERSION}-${ORACLE_HASH}.v8`
  if (existsSync(cached)) return deserialize(readFileSync(cached))
  const result = keep(cached, await analyse(path))
  // Results of another DevTools version or of this file before a change are never read again.
  const prefix = `${basename(path)}.devtools-`
  for (const name of readdirSync(dirname(path))) {
    if (name.startsWith(prefix) && name.endsWith('.v8') && name !== basename(cached)) rmSync(join(dirname(path), name), { force: true })
  }
  return result
}

/**
 * Writes a result aside and renames it into place, so that a reader sees one whole file.
 * @param {string} cached
 * @param {OracleResult} result
 * @returns {OracleResult}
 */
function keep (cached, result) {
  writeFileSync(`${cached}.${process.pid}-${threadId}.tmp`, serialize(result))
  renameSync(`${cached}.${process.pid}-${threadId}.tmp`, cached)
  return result
}

/** Results kept by content; the oldest go past this many. */
const MAX_CONTENT_RESULTS = 32

/**
 * The oracle's result for a file that no other run has at this path, kept in
 * node_modules/.cache/leakdiff-oracle/results/ by a hash of its bytes, DevTools' version and this
 * file's own hash, so that a test's copy made the same way each run is analysed once. At most
 * MAX_CONTENT_RESULTS are kept: a test whose copies differ from run to run only ever misses.
 * @param {string} path
 * @returns {Promise<OracleResult>}
 */
async function contentCached (path) {
  const dir = join(CACHE_DIR, 'results')
  const key = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 24)
  const cached = join(dir, `${key}-${DEVTOOLS_FRONTEND_VERSION}-${ORACLE_HASH}.v8`)
  if (existsSync(cached)) {
    // Another thread may prune it in between: then it is made again.
    try {
      return { ...deserialize(readFileSync(cached)), file: path }
    } catch {}
  }
  const result = await analyse(path)
  mkdirSync(dir, { recursive: true })
  keep(cached, result)
  const kept = readdirSync(dir).filter((name) => name.endsWith('.v8')).map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
  for (const { name } of kept.sort((a, b) => b.at - a.at).slice(MAX_CONTENT_RESULTS)) rmSync(join(dir, name), { force: true })
  return result
}

/** @param {string} path */
async function analyse (path) {
  const { HeapSnapshotLoader, SecondaryInitManager, HeapSnapshotModel } = await loadDevtoolsWorker()
  const text = readFileSync(path, 'latin1')
  const loader = new HeapSnapshotLoader(undefined)
  for (let start = 0; start < text.length; start += CHUNK_CHARS) {
    loader.write(text.slice(start, start + CHUNK_CHARS))
  }
  loader.close()

  const channel = new MessageChannel()
  /** @type {Array<Array<string | number>>} */
  const reports = []
  channel.port1.addEventListener('message', (event) => {
    const { data } = /** @type {MessageEvent} */ (event)
    if (data?.problemReport) reports.push(data.problemReport)
  })
  let snapshot
  try {
    // eslint-disable-next-line no-new -- the manager wires itself to the port and answers the primary side
    new SecondaryInitManager(channel.port2)
    snapshot = await loader.buildSnapshot(channel.port1)
  } finally {
    channel.port1.close()
    channel.port2.close()
  }

  const aggregates = snapshot.aggregatesWithFilter(new HeapSnapshotModel.NodeFilter())
  /** @type {OracleClass[]} */
  const classes = Object.entries(aggregates).map(([key, aggregate]) => ({
    name: aggregate.name,
    key,
    count: aggregate.count,
    self: aggregate.self,
    retained: aggregate.maxRet,
    distance: aggregate.distance
  }))
  classes.sort((a, b) => b.retained - a.retained || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))

  const nodeCount = snapshot.nodeCount
  const nodeFieldCount = snapshot.nodeFieldCount
  const ids = new Uint32Array(nodeCount)
  const self = new Float64Array(nodeCount)
  const dominatorId = new Uint32Array(nodeCount)
  /** @type {string[]} */
  const className = new Array(nodeCount)
  /** @type {string[]} */
  const classKey = new Array(nodeCount)
  const node = snapshot.createNode(0)
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    node.nodeIndex = ordinal * nodeFieldCount
    ids[ordinal] = node.id()
    self[ordinal] = node.selfSize()
    className[ordinal] = node.className()
    const key = node.classKeyInternal()
    classKey[ordinal] = typeof key === 'number' ? `,${snapshot.strings[key]}` : key
  }
  const dominator = Uint32Array.from(snapshot.dominatorsTree)
  for (let ordinal = 0; ordinal < nodeCount; ordinal++) {
    dominatorId[ordinal] = ids[dominator[ordinal]]
  }

  const rootOrdinal = snapshot.rootNodeIndexInternal / nodeFieldCount
  return {
    file: path,
    devtoolsVersion: DEVTOOLS_FRONTEND_VERSION,
    nodeCount,
    edgeCount: snapshot.containmentEdges.length / snapshot.edgeFieldsCount,
    rootOrdinal,
    totalSize: snapshot.totalSize,
    statistics: structuredClone(snapshot.getStatistics()),
    classes,
    nodes: {
      ids,
      self,
      retained: Float64Array.from(snapshot.retainedSizes),
      dominator,
      dominatorId,
      distance: Int32Array.from(snapshot.nodeDistances),
      className,
      classKey
    },
    // Report entries are strings or node indexes, named as DevTools' console names them (`name @id`).
    problems: reports.flat().map((entry) => {
      if (typeof entry === 'string') return entry
      node.nodeIndex = entry
      return `${node.name()} @${node.id()}`
    })
  }
}
