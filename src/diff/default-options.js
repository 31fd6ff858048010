// The diff's thresholds, apart from the diff: the CLI shows them in its help, and loads no diff to
// do so.
/** @import {GrowthThresholds} from './growth-thresholds.js' */

/**
 * Default thresholds: an owner group is a leak when its leaked objects reach both sizes and, with
 * three snapshots, it keeps growing in the last step.
 * @type {Readonly<GrowthThresholds & {minIdAgreement: number}>}
 */
export const DEFAULT_DIFF_OPTIONS = Object.freeze({
  minBytes: 64 * 1024,
  minObjects: 50,
  minContinued: 0.1,
  // Within one process ~1.0 (observed 0.99998); across two processes ~0.33 (heapsnapshot-format.md 5).
  minIdAgreement: 0.9
})
