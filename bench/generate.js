// Writes the benchmark snapshots into bench/out/: real `v8.writeHeapSnapshot` output of the
// server-like heap in server-heap.js, at four sizes. `node bench/generate.js` makes them all.
//
// Why real writes and no synthetic scaling: V8's write cost grows with object and edge count,
// but the ~2 GB file still takes only about 5 minutes and about 11 GB of RSS on a 24 GiB machine
// (1 GB: 100 s, 5.2 GB): affordable once, and cached afterwards.
//
// Cache: bench/out/manifest.json records each file's size, the session count and a hash of the
// heap program. A file is made again only when it is missing, its size differs, or the count or
// the program changed.
// A file is written under a temporary name and renamed, so an interrupted write never counts.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseSnapshot } from '../src/parse/parse-snapshot.js'

export const OUT_DIR = fileURLToPath(new URL('out', import.meta.url))
const HEAP_PROGRAM = fileURLToPath(new URL('server-heap.js', import.meta.url))
const MANIFEST = join(OUT_DIR, 'manifest.json')
const PROGRAM_HASH = createHash('sha256').update(readFileSync(HEAP_PROGRAM)).digest('hex').slice(0, 16)

// One session is about 3.7 KB of snapshot; a bare process with the catalog about 6.5 MB.
export const SIZES = [
  { label: '20 MB', name: 'server-20mb', sessions: 3_600 },
  { label: '200 MB', name: 'server-200mb', sessions: 52_000 },
  { label: '1 GB', name: 'server-1gb', sessions: 260_000 },
  { label: '2 GB', name: 'server-2gb', sessions: 540_000 }
]

// The heap program keeps the whole heap (about 1.5 GB at 540,000 sessions) and then V8 builds the
// snapshot beside it; the default old-space limit is too small for the largest size.
const WRITER_HEAP_MB = 8192

/**
 * @typedef {object} GeneratedFile
 * @property {string} label
 * @property {string} name
 * @property {string} path
 * @property {number} bytes
 * @property {number} sessions
 * @property {string} programHash
 * @property {number} nodeCount
 * @property {number} edgeCount
 */

/**
 * Makes every missing or stale snapshot and checks that the parser accepts it.
 * @param {{log?: (line: string) => void}} [options]
 * @returns {Promise<GeneratedFile[]>}
 */
export async function generateSnapshots ({ log = () => {} } = {}) {
  mkdirSync(OUT_DIR, { recursive: true })
  const manifest = readManifest()
  /** @type {GeneratedFile[]} */
  const files = []
  for (const size of SIZES) {
    const path = join(OUT_DIR, `${size.name}.heapsnapshot`)
    const known = manifest[size.name]
    if (known && known.sessions === size.sessions && known.programHash === PROGRAM_HASH && existsSync(path) && statSync(path).size === known.bytes) {
      log(`${size.label}: cached ${path} (${formatMB(known.bytes)})`)
      files.push(known)
      continue
    }
    log(`${size.label}: writing ${size.sessions} sessions to ${path} ...`)
    const started = performance.now()
    writeSnapshot(path, size.sessions)
    const seconds = (performance.now() - started) / 1000
    const data = await parseSnapshot(path)
    /** @type {GeneratedFile} */
    const file = {
      label: size.label,
      name: size.name,
      path,
      bytes: statSync(path).size,
      sessions: size.sessions,
      programHash: PROGRAM_HASH,
      nodeCount: data.nodeCount,
      edgeCount: data.edgeCount
    }
    log(`${size.label}: ${formatMB(file.bytes)}, ${file.nodeCount} nodes, ${file.edgeCount} edges, written in ${seconds.toFixed(1)} s`)
    manifest[size.name] = file
    writeFileSync(MANIFEST, JSON.stringify(manifest, null, 2) + '\n')
    files.push(file)
  }
  return files
}

/**
 * @param {string} path
 * @param {number} sessions
 */
function writeSnapshot (path, sessions) {
  const partial = `${path}.partial`
  rmSync(partial, { force: true })
  const child = spawnSync(process.execPath, [`--max-old-space-size=${WRITER_HEAP_MB}`, HEAP_PROGRAM, partial, String(sessions)], {
    stdio: ['ignore', 'inherit', 'inherit']
  })
  if (child.status !== 0 || !existsSync(partial)) {
    rmSync(partial, { force: true })
    throw new Error(`Expected ${HEAP_PROGRAM} to write ${partial}, got exit code ${child.status} (signal ${child.signal})`)
  }
  renameSync(partial, path)
}

/** @returns {Record<string, GeneratedFile>} */
function readManifest () {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8'))
  } catch {
    return {}
  }
}

/** @param {number} bytes */
export function formatMB (bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generateSnapshots({ log: (line) => console.log(line) })
}
