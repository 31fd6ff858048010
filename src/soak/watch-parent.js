// Preloaded into every node process of a `leakdiff soak` service (NODE_OPTIONS `--import`, next to
// the agent; never part of the production agent). The service runs in its own process group, so a
// leakdiff that is SIGKILLed (which runs no cleanup) would leave it running, holding its port. This
// polls for the leakdiff process and ends the service once it is gone: SIGTERM, then SIGKILL.
// Linux identifies the process by its start time as well (/proc), so a reused pid does not count.
import { readFileSync } from 'node:fs'

/** How often the parent is looked for, in ms; the timer is unref'd and never keeps the service up. */
const POLL_MS = 250
/** Time the service gets after SIGTERM before SIGKILL, in ms (the soak's own stop gives 5 s). */
const GRACE_MS = 5000

const parent = Number(process.env.LEAKDIFF_SOAK_PARENT)
if (Number.isSafeInteger(parent) && parent > 1) {
  const started = startTime(parent)
  const timer = setInterval(() => {
    if (isAlive(parent, started)) return
    clearInterval(timer)
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), GRACE_MS).unref()
    process.kill(process.pid, 'SIGTERM')
  }, POLL_MS)
  timer.unref()
}

/**
 * @param {number} pid
 * @param {string | null} started  its start time when it was first seen, null where /proc is missing
 */
function isAlive (pid, started) {
  try {
    process.kill(pid, 0)
  } catch {
    // ESRCH: gone. EPERM: the pid now belongs to another user, so it is not the one that started us.
    return false
  }
  return started === null || startTime(pid) === started
}

/**
 * Field 22 of /proc/<pid>/stat (clock ticks after boot); field 2, the command, may contain spaces and ')'.
 * @param {number} pid
 * @returns {string | null}
 */
function startTime (pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}
