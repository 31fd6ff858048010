// A node's age in the last snapshot of a diff, relative to the earlier snapshots, one byte per node
// (diff/node-ages.js computes them; growth owners, the matchers and the helpers they share read them).

/** Existed in the baseline. */
export const AGE_OLD = 0
/** Allocated after the baseline and still alive (between a and b with three snapshots). */
export const AGE_LEAKED = 1
/** Allocated in the last step (between b and c); only with three snapshots. */
export const AGE_RECENT = 2
