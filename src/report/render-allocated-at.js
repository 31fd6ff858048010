// "Allocated at" on a finding card: the user's own line first, then the frames from it down to the
// allocation (library and native frames), then how much was sampled and what the tie rests on.
import { formatBytes, formatCount } from './format.js'
/** @import {AllocatedAt, Frame} from './model/allocations.js' */

const SHOWN_FRAMES = 3

/**
 * @param {Frame} frame
 * @returns {string}
 */
export function frameText (frame) {
  // A package's files read best from the package's name on.
  const file = frame.kind === 'library' ? frame.file.replace(/^.*[\\/]node_modules[\\/]/, '') : frame.file
  const where = frame.file === '(native)' ? '(native)' : `${file}:${frame.line}`
  return frame.function === '' ? where : `${frame.function} (${where})`
}

/**
 * The parts of an "allocated at" line.
 * @param {AllocatedAt} allocatedAt
 * @returns {{site: string, via: string, amount: string, basis: string[]}}
 */
export function allocatedAtParts (allocatedAt) {
  const { site, stacks, bytes, samples, basis } = allocatedAt
  const frames = stacks[0]?.frames ?? []
  const at = site === null ? -1 : frames.findIndex((frame) => frame.file === site.file && frame.line === site.line && frame.function === site.function)
  // The frames below the user's line, nearest first: what it called that made the objects.
  const below = (at < 0 ? frames : frames.slice(0, at)).filter((frame) => frame.kind !== 'native').reverse()
  const shown = below.slice(0, SHOWN_FRAMES).map(frameText)
  if (below.length > SHOWN_FRAMES) shown.push(`${below.length - SHOWN_FRAMES} more`)
  const siteText = site === null ? '(no frame)' : `${site.file}:${site.line}${site.function === '' ? '' : `  ${site.function}`}${site.callLine ? '' : ' (where the function starts)'}`
  const more = stacks.length > 1 ? ` on ${stacks.length} stacks` : ''
  return {
    site: siteText,
    via: shown.length === 0 ? '' : `→ ${shown.join(' → ')}`,
    amount: `~${formatBytes(bytes)} sampled since the first snapshot (${formatCount(samples)} sample${samples === 1 ? '' : 's'}${more})`,
    basis: basis.filter((reason) => !reason.startsWith('sampled objects'))
  }
}
