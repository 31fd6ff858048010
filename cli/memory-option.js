// --skip-memory-check, for the commands that analyse snapshots; the check itself is memory-check.js.
export const SKIP_OPTION = {
  'skip-memory-check': {
    type: /** @type {const} */ ('boolean'),
    describe: 'Start even when the snapshots look too big for the memory left (LEAKDIFF_MEMORY_LIMIT=2GB sets a lower limit)'
  }
}
