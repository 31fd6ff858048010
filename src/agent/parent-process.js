import { readFileSync } from 'node:fs'

/**
 * Looks for nodemon among the nearest ancestors of this process (through a shell or npm that it
 * may have started in between). nodemon restarts its child with SIGUSR2 and waits for it to exit;
 * a handler on SIGUSR2 would turn every restart into a snapshot and a hung restart. Linux only
 * (reads /proc); elsewhere it finds nothing.
 * @param {number} [depth] how many ancestors to look at
 * @returns {string | undefined} the command line of the nodemon process, if one was found
 */
export function findNodemonAncestor (depth = 3) {
  let pid = process.ppid
  for (let level = 0; level < depth && pid > 1; level++) {
    let cmdline
    let stat
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      return undefined
    }
    if (/(^|[\s/])nodemon(\.js)?(\s|$)/.test(cmdline)) return cmdline
    // Field 4 of /proc/<pid>/stat is the ppid; field 2 (the command) may contain spaces and ')'.
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  }
  return undefined
}
