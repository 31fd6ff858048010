// `--source-root FROM=TO`: the paths of the process that wrote the snapshot (`/app` in its
// container) read as paths of this machine (`.`, a checkout of the same commit).
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { InvalidArgumentError, describeValue } from '../errors.js'

/**
 * @typedef {object} SourceRoot
 * @property {string} from  a directory as the process saw it
 * @property {string} to    the same directory on this machine, absolute
 */

/**
 * Reads `FROM=TO` (TO relative to `cwd`).
 * @param {string | {from: string, to: string}} value
 * @param {string} cwd
 * @returns {SourceRoot}
 */
export function parseSourceRoot (value, cwd) {
  const text = typeof value === 'string' ? value : `${value.from}=${value.to}`
  const at = text.indexOf('=')
  const from = at < 0 ? '' : text.slice(0, at)
  const to = at < 0 ? '' : text.slice(at + 1)
  if (from === '' || to === '' || !isAbsolute(from)) {
    throw new InvalidArgumentError(`Expected a source root as FROM=TO with FROM an absolute path of the process (like /app=.), got ${JSON.stringify(text)}`)
  }
  return { from: resolve(from), to: resolve(cwd, to) }
}

/**
 * The path on this machine of a path of the process: under the first root whose `from` holds it,
 * else the path itself.
 * @param {string} path absolute
 * @param {SourceRoot[]} roots
 * @returns {{path: string, rooted: boolean}}
 */
export function localPath (path, roots) {
  for (const root of roots) {
    const inside = relative(root.from, path)
    if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
      return { path: inside === '' ? root.to : join(root.to, ...inside.split(sep)), rooted: true }
    }
  }
  return { path, rooted: false }
}

/**
 * The source options of assertNoLeak and runSoak, checked before anything runs.
 * @param {{sourceMaps?: unknown, sourceRoots?: unknown}} options
 * @returns {{sourceMaps: string | null, sourceRoots: string[]}}
 */
export function checkSourceOptions ({ sourceMaps, sourceRoots = [] }) {
  if (sourceMaps !== undefined && sourceMaps !== null && (typeof sourceMaps !== 'string' || sourceMaps === '')) {
    throw new InvalidArgumentError(`Expected \`sourceMaps\` to be a directory path, got ${describeValue(sourceMaps)}`)
  }
  if (!Array.isArray(sourceRoots) || !sourceRoots.every((root) => typeof root === 'string')) {
    throw new InvalidArgumentError(`Expected \`sourceRoots\` to be an array of 'FROM=TO' strings, got ${describeValue(sourceRoots)}`)
  }
  for (const root of sourceRoots) parseSourceRoot(root, process.cwd())
  return { sourceMaps: typeof sourceMaps === 'string' ? sourceMaps : null, sourceRoots }
}
