// Sampled allocation stacks: the sites whose live bytes grew, and those tied to a finding.
/** @import {AllocatedAt as AllocationTie, AllocationStack as TiedStack, FrameLocation} from '../../diff/alloc-stacks.js' */
/** @import {AllocationsReport} from '../../diff/alloc-stacks.js' */
/** @import {Position} from './locations.js' */
import { mappedParts } from './locations.js'

/**
 * A frame of an allocation stack: `line` is the calling line when `callLine`, else the function's start.
 * @typedef {object} Frame
 * @property {string} file     `(native)` for native code
 * @property {number} line     1-based; 0 for native code, which has no position
 * @property {number} column   1-based; 0 likewise
 * @property {string} function
 * @property {'user' | 'library' | 'node' | 'native'} kind
 * @property {boolean} callLine
 * @property {Position} [generated]
 * @property {Position & {snippet: string | null}} [original]
 * @property {string} [generatedFunction]
 */

/**
 * @typedef {object} StackRow  one allocation site whose live sampled bytes grew
 * @property {Frame[]} frames  the allocating frame first
 * @property {number} bytes    sampled bytes allocated after the first snapshot, alive at the last
 * @property {number} samples
 * @property {number[]} steps  per step between snapshots
 * @property {number} callers  the ways the site was called that the samples were summed over
 */

/**
 * @typedef {object} AllocatedAt  the growing allocation stacks tied to a finding
 * @property {Frame | null} site  the user's own frame on the largest tied stack
 * @property {number} bytes
 * @property {number} samples
 * @property {string[]} basis     what the tie rests on
 * @property {StackRow[]} stacks  most bytes first
 */

/**
 * @typedef {object} Allocations
 * @property {string[]} profiles
 * @property {number | null} intervalBytes
 * @property {StackRow[]} growing
 */

/**
 * @param {FrameLocation} found
 * @returns {Frame}
 */
function frame (found) {
  return {
    file: found.file,
    line: found.line,
    column: found.column,
    function: found.function,
    kind: found.kind,
    callLine: found.callLine,
    ...mappedParts(found)
  }
}

/**
 * @param {TiedStack} stack
 * @returns {StackRow}
 */
export function stackRowModel (stack) {
  return { frames: stack.frames.map(frame), bytes: stack.bytes, samples: stack.samples, steps: [...stack.steps], callers: stack.callers }
}

/**
 * @param {AllocationTie} tie
 * @returns {AllocatedAt}
 */
export function allocatedAtModel (tie) {
  return { site: tie.site && frame(tie.site), bytes: tie.bytes, samples: tie.samples, basis: [...tie.basis], stacks: tie.stacks.map(stackRowModel) }
}

/**
 * @param {AllocationsReport} allocations
 * @returns {Allocations}
 */
export function allocationsModel (allocations) {
  return {
    profiles: [...allocations.profiles],
    intervalBytes: allocations.intervalBytes,
    growing: allocations.growing.map(stackRowModel)
  }
}
