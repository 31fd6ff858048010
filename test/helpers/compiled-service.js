// Builds of fixtures/sources/service the ways services ship: `tsc` with separate .map files (run
// from dist/), and esbuild bundles, minified, with an inline map and with an external map. The
// builds and their snapshots are committed (fixtures/capture/builds.js makes them): each case's
// directory under fixtures/snapshots/ holds the build as it ran (`app/`), or, for the external map,
// moved after the run as a checkout on another machine is (`checkout/`, its map in `maps/`).
// `compiledService({live: true})` builds and runs them now, in a temporary directory.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { caseName } from '../../fixtures/capture/cases.js'
import { captureFixture } from './fixture-snapshots.js'

export const SERVICE_DIR = fileURLToPath(new URL('../../fixtures/sources/service/', import.meta.url))
const SNAPSHOTS_DIR = fileURLToPath(new URL('../../fixtures/snapshots/', import.meta.url))
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))
const PROGRAM = 'sources/compiled-service'

/**
 * @typedef {object} ServiceBuild
 * @property {string} root      the build's directory as the process saw it (a container's /app)
 * @property {string} local     where the build is now: `root`, except for the external-map bundle,
 *   moved after its run as a checkout on another machine would be, its map moved to `maps`
 * @property {string} script    the entry script that ran
 * @property {string[]} files   its snapshots, oldest first
 */

/** @typedef {{dir: string, tsc: ServiceBuild, inline: ServiceBuild, external: ServiceBuild, maps: string}} ServiceBuilds */

/** @type {Map<boolean, Promise<ServiceBuilds>>} */
const builds = new Map()

/**
 * The three builds of the service, each run once: the committed ones, or with `live` built and
 * run now. `dir` is a temporary directory of the caller's (the builds' own directories are read
 * only).
 * @param {{live?: boolean}} [options]
 * @returns {Promise<ServiceBuilds>}
 */
export function compiledService ({ live = false } = {}) {
  let made = builds.get(live)
  if (!made) builds.set(live, (made = live ? buildAll() : committedBuilds()))
  return made
}

async function committedBuilds () {
  const dir = mkdtempSync(join(tmpdir(), 'leakdiff-service-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const [tsc, inline, external] = await Promise.all(/** @type {const} */ (['tsc', 'inline', 'external']).map(async (build) => {
    const caseDir = join(SNAPSHOTS_DIR, caseName({ program: PROGRAM, build }))
    const root = join(caseDir, 'app')
    const script = build === 'tsc' ? join(root, 'dist', 'server.js') : join(root, 'server.js')
    const { files } = await captureFixture(PROGRAM, { build })
    return { root, local: build === 'external' ? join(caseDir, 'checkout') : root, script, files }
  }))
  return { dir, tsc, inline, external, maps: join(SNAPSHOTS_DIR, caseName({ program: PROGRAM, build: 'external' }), 'maps') }
}

async function buildAll () {
  const { build } = await import('esbuild')
  const dir = mkdtempSync(join(tmpdir(), 'leakdiff-service-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const roots = { tsc: join(dir, 'tsc'), inline: join(dir, 'inline'), external: join(dir, 'external') }
  for (const root of Object.values(roots)) {
    mkdirSync(root)
    // The compiled files are ES modules, as the sources are.
    writeFileSync(join(root, 'package.json'), '{"type": "module"}\n')
  }
  const entry = join(SERVICE_DIR, 'src', 'server.ts')
  /** @param {string} root @param {'inline' | 'external'} sourcemap */
  const bundle = (root, sourcemap) => build({ entryPoints: [entry], outfile: join(root, 'server.js'), bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', sourcemap, logLevel: 'error' })
  await Promise.all([
    promisify(execFile)(process.execPath, [TSC, '-p', join(SERVICE_DIR, 'tsconfig.json'), '--outDir', join(roots.tsc, 'dist')]),
    bundle(roots.inline, 'inline'),
    bundle(roots.external, 'external')
  ])
  const scripts = { tsc: join(roots.tsc, 'dist', 'server.js'), inline: join(roots.inline, 'server.js'), external: join(roots.external, 'server.js') }
  const [tsc, inline, external] = await Promise.all(/** @type {const} */ (['tsc', 'inline', 'external']).map(async (name) => {
    const { files } = await captureFixture(PROGRAM, { args: [scripts[name]], live: true })
    return { root: roots[name], local: roots[name], script: scripts[name], files }
  }))
  // As a release keeps its maps apart from the code it ships: `--source-maps DIR`.
  external.local = join(dir, 'checkout')
  renameSync(external.root, external.local)
  mkdirSync(join(dir, 'maps'))
  renameSync(join(external.local, 'server.js.map'), join(dir, 'maps', 'server.js.map'))
  return { dir, tsc, inline, external, maps: join(dir, 'maps') }
}

export const CJS_SERVICE_DIR = fileURLToPath(new URL('../../fixtures/sources/cjs-service/', import.meta.url))

/** @type {Map<boolean, Promise<ServiceBuild>>} */
const cjsBuilds = new Map()

/**
 * fixtures/sources/cjs-service compiled by tsc to CommonJS with separate .map files, its handler
 * served from dist/server.js by the fixture program: the committed build and its snapshots, or
 * with `live` built and run now.
 * @param {{live?: boolean}} [options]
 * @returns {Promise<ServiceBuild>}
 */
export function compiledCjsService ({ live = false } = {}) {
  let made = cjsBuilds.get(live)
  if (!made) cjsBuilds.set(live, (made = live ? buildCjs() : committedCjs()))
  return made
}

async function committedCjs () {
  const root = join(SNAPSHOTS_DIR, caseName({ program: PROGRAM, build: 'cjs' }), 'app')
  const { files } = await captureFixture(PROGRAM, { build: 'cjs' })
  return { root, local: root, script: join(root, 'dist', 'server.js'), files }
}

async function buildCjs () {
  const root = mkdtempSync(join(tmpdir(), 'leakdiff-cjs-service-'))
  process.once('exit', () => rmSync(root, { recursive: true, force: true }))
  writeFileSync(join(root, 'package.json'), '{"type": "commonjs"}\n')
  await promisify(execFile)(process.execPath, [TSC, '-p', join(CJS_SERVICE_DIR, 'tsconfig.json'), '--outDir', join(root, 'dist')])
  const script = join(root, 'dist', 'server.js')
  const { files } = await captureFixture(PROGRAM, { args: [script], live: true })
  return { root, local: root, script, files }
}
