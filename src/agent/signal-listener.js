// The signal that starts a series: listened to in the main thread unless nodemon would send it,
// and announced by the marker `leakdiff capture` looks for before it sends one.
import { writeMarker } from './agent-marker.js'
import { describeError } from './capture-snapshot.js'
import { findNodemonAncestor } from './parent-process.js'
/** @import {EventSink} from './events.js' */

/**
 * Listens for `signal` (none when null), unless it is SIGUSR2 and nodemon runs this process: it
 * restarts the process with SIGUSR2.
 * @param {object} options
 * @param {NodeJS.Signals | null} options.signal
 * @param {string} options.dir  where the marker goes
 * @param {EventSink} options.emit
 * @param {() => void} options.onSignal
 * @returns {{signal: NodeJS.Signals | null, stop: () => void}}  the signal listened to, and what
 *   removes the listener and the marker
 */
export function listenForSignal ({ signal, dir, emit, onSignal }) {
  let listening = signal
  if (listening === 'SIGUSR2') {
    const nodemon = findNodemonAncestor()
    if (nodemon !== undefined) {
      listening = null
      emit({
        type: 'config',
        message: `not listening on SIGUSR2: this process runs under nodemon (${nodemon}), which restarts it with SIGUSR2; set LEAKDIFF_SIGNAL to another signal (e.g. SIGHUP)`
      })
    }
  }
  if (!listening) return { signal: null, stop: () => {} }
  const listened = listening
  process.on(listened, onSignal)
  const removeMarker = markListening(listened, dir, emit)
  return {
    signal: listened,
    stop: () => {
      process.removeListener(listened, onSignal)
      removeMarker?.()
    }
  }
}

/**
 * Leaves the marker `leakdiff capture` looks for before it sends a signal (agent-marker.js), and
 * removes it when the process exits. Without it capture refuses (unless --force), so a marker
 * that cannot be written is said once.
 * @param {NodeJS.Signals} signal
 * @param {string} dir
 * @param {EventSink} emit
 * @returns {(() => void) | null}  removes the marker now; null when none was written
 */
function markListening (signal, dir, emit) {
  try {
    const remove = writeMarker(dir, signal)
    process.once('exit', remove)
    return () => {
      process.removeListener('exit', remove)
      remove()
    }
  } catch (error) {
    emit({ type: 'config', message: `leakdiff capture cannot tell that this process runs the agent (it needs --force): the marker was not written to ${dir}: ${describeError(error)}` })
    return null
  }
}
