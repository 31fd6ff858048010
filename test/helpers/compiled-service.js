// Builds fixtures/sources/service the ways services ship: `tsc` with separate .map files (run
// from dist/), and one esbuild bundle, minified, with an inline map and one with an external map.
// Each build goes into a temporary directory (removed when the test process exits), runs through
// the fixture program sources/compiled-service, and leaves its snapshots. One build per test process.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { captureFixture } from './fixture-snapshots.js'

export const SERVICE_DIR = fileURLToPath(new URL('../../fixtures/sources/service/', import.meta.url))
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))

/**
 * @typedef {object} ServiceBuild
 * @property {string} root      the build's directory as the process saw it (a container's /app)
 * @property {string} local     where the build is now: `root`, except for the external-map bundle,
 *   moved after its run as a checkout on another machine would be, its map moved to `maps`
 * @property {string} script    the entry script that ran
 * @property {string[]} files   its snapshots, oldest first
 */

/** @type {Promise<{dir: string, tsc: ServiceBuild, inline: ServiceBuild, external: ServiceBuild, maps: string}> | undefined} */
let builds

/**
 * The three builds of the service, each run once.
 */
export function compiledService () {
  builds ??= buildAll()
  return builds
}

async function buildAll () {
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
    const { files } = await captureFixture('sources/compiled-service', { args: [scripts[name]] })
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

/** @type {Promise<ServiceBuild> | undefined} */
let cjsBuild

/**
 * fixtures/sources/cjs-service compiled by tsc to CommonJS with separate .map files, its handler
 * served from dist/server.js by the fixture program, once per test process.
 * @returns {Promise<ServiceBuild>}
 */
export function compiledCjsService () {
  cjsBuild ??= buildCjs()
  return cjsBuild
}

async function buildCjs () {
  const root = mkdtempSync(join(tmpdir(), 'leakdiff-cjs-service-'))
  process.once('exit', () => rmSync(root, { recursive: true, force: true }))
  writeFileSync(join(root, 'package.json'), '{"type": "commonjs"}\n')
  await promisify(execFile)(process.execPath, [TSC, '-p', join(CJS_SERVICE_DIR, 'tsconfig.json'), '--outDir', join(root, 'dist')])
  const script = join(root, 'dist', 'server.js')
  const { files } = await captureFixture('sources/compiled-service', { args: [script] })
  return { root, local: root, script, files }
}
