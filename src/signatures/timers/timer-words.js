// The words of a forgotten-timer finding: its title, its notes, its fix (intervals, timeouts, and
// handles the program keeps in a collection but never clears) and the reasons for its confidence.

import { bytesText, countText, durationText, namedBytes, notesOf } from '../evidence-notes.js'
import { percent } from '../growth-evidence.js'
/** @import {SourceLocation} from '../finding.js' */
/** @import {PackageMaker} from '../package-makers.js' */

/**
 * The collection of the program that keeps the timers' handles.
 * @typedef {object} KeptHandles
 * @property {string} name       the variable or property that holds it
 * @property {string} kind       its collection kind (`Map`, `Set`, `array`)
 * @property {string} className
 * @property {number} share      of the sampled new timers, those it holds (0..1)
 */

/** Why the confidence is what it is: one clause per fact the matcher weighs. */
export const TIMER_REASONS = Object.freeze({
  /** @param {number} share  of the timers started since the first snapshot and still live, those running this callback */
  callback: (share) => `${percent(share)} of the timers started since the first snapshot and still live run this callback`,
  /**
   * @param {number} intervals
   * @param {number} count  live timers with this callback
   */
  intervals: (intervals, count) => `${intervals} of ${count} are intervals, which never end on their own`,
  timeouts: 'they are one-shot timeouts that have not fired yet (long delays, or re-armed)',
  /**
   * @param {number} share  of the growth row's growth, what the timers retain
   * @param {{id: number, name: string}} owner  the row's owner: named, not numbered, since a report
   *   may list fewer rows than the diff found
   */
  row: (share, owner) => `they retain ${percent(share)} of the growth held by ${owner.name} @${owner.id}`,
  noRow: 'no growth row owns them: the timer list is a ring that other references also enter, so its timers are counted directly'
})

/**
 * @param {string} fn  the callback's name, '' when anonymous
 * @param {boolean} repeating  most of the timers are intervals
 * @param {number[]} counts  live timers per snapshot
 * @param {number | null} durationMs  the delay of their list
 */
export function timerTitle (fn, repeating, counts, durationMs) {
  const callText = fn === '' ? 'an anonymous callback' : fn
  return `${repeating ? 'Intervals' : 'Timeouts'} started with ${callText} are never cleared: ${counts.map(countText).join(' → ')} live timers${durationMs === null ? '' : ` in the ${countText(durationMs)} ms list`}.`
}

/**
 * The card's lines.
 * @param {{count: number, intervals: number, bytesEach: number, newTimers: number, durationMs: number | null,
 *   variables: Array<{name: string, bytes: number}>, kept: KeptHandles | null, library?: string | null,
 *   started?: SourceLocation | null, maker?: PackageMaker | null}} facts  count: live timers with this callback, the last snapshot's;
 *   bytesEach: what one retains, on average; variables: what the callback captures; library: the
 *   package whose timers they are; started: the program's function they keep
 */
export function timerNotes ({ count, intervals, bytesEach, newTimers, durationMs, variables, kept, library = null, started = null, maker = null }) {
  return notesOf([
    `${intervals > 0 ? `${countText(intervals)} intervals` : ''}${intervals > 0 && intervals < count ? ' and ' : ''}${intervals < count ? `${countText(count - intervals)} pending timeouts` : ''}${durationMs === null ? '' : ` of ${durationText(durationMs)}`}, ~${bytesText(bytesEach)} each`,
    `${countText(newTimers)} started since the first snapshot and still live`,
    variables.length > 0 && `the callback captures ${namedBytes(variables)}`,
    kept !== null && `the program keeps ${percent(kept.share)} of the new handles in ${kept.name} (${kept.className}), and clears none of them`,
    library !== null && `the timers are ${library}'s own${started === null ? '' : `, each keeping the program's function at ${started.file}:${started.line}`}`,
    maker !== null && `${maker.count} of ${maker.sampled} sampled timers run for a new ${maker.className} (${library}), which offers ${maker.method}()`
  ])
}

/**
 * The remedy for timers a package runs for something the program started in it: ending that
 * thing, since the program holds no handle on the timers themselves.
 * @param {string} library
 * @param {SourceLocation | null} started  the program's function the timers keep
 * @param {PackageMaker | null} [maker]  the package's object, made per call, whose method ends them
 * @returns {{summary: string, snippet: string}}
 */
export function libraryTimerFix (library, started, maker = null) {
  const where = started === null ? '' : ` (the call at ${started.file}:${started.line}, whose callback each timer keeps)`
  if (maker !== null) {
    // The object found may be a part of what the program made (a CircuitBreaker's Status, alive
    // through its own timers after the breaker is gone): the card names its class as a clue and
    // its method, which the made object offers too.
    const { className, method } = maker
    return {
      summary: `these timers are ${library}'s own: something the program makes through ${library} per call${where} starts them (a new ${className} for each, which offers ${method}()), and they keep running, with all they hold, until ${method}() ends them. Make it once at start-up and reuse it, or call ${method}() on what ${library} returned when its work is done.`,
      snippet: `// what ${library} returned for this work: made once at start-up, or ended when the work ends\nres.on('close', () => handle.${method}())`
    }
  }
  return {
    summary: `these timers are ${library}'s own: it runs them for something the program started in it${where}, and they keep running, with all they hold, until that is ended. End it when its work is done, with what ${library} returned for it (its stop, destroy or close), or start it once, at start-up, not per request.`,
    snippet: `// what ${library} returned for this work, ended when the work ends\nres.on('close', () => handle.destroy())`
  }
}

/**
 * @param {string} fn  the callback's name, '' when anonymous
 * @param {boolean} repeating
 * @param {number | null} durationMs
 * @param {KeptHandles | null} kept
 * @returns {{summary: string, snippet: string}}
 */
export function timerFix (fn, repeating, durationMs, kept) {
  if (kept !== null) return keptFix(kept, repeating)
  const fnName = fn !== '' ? fn : '() => { /* ... */ }'
  const delay = durationMs ?? 'ms'
  return repeating
    ? {
        summary: 'keep the handle and clearInterval it when the request or connection it serves ends; unref() a timer that must not keep the process alive.',
        snippet: `const timer = setInterval(${fnName}, ${delay})\nres.on('close', () => clearInterval(timer))`
      }
    : {
        summary: 'keep the handle and clearTimeout it when the work it guards ends; unref() a timer that must not keep the process alive.',
        snippet: `const timer = setTimeout(${fnName}, ${delay})\nres.on('close', () => clearTimeout(timer))`
      }
}

/**
 * The remedy when the program keeps the handles but never clears them.
 * @param {{name: string, kind: string}} kept
 * @param {boolean} repeating
 * @returns {{summary: string, snippet: string}}
 */
function keptFix (kept, repeating) {
  const clear = repeating ? 'clearInterval' : 'clearTimeout'
  const { name, kind } = kept
  const snippet = kind === 'Map'
    ? `${clear}(${name}.get(id))\n${name}.delete(id)`
    : kind === 'Set'
      ? `${clear}(timer)\n${name}.delete(timer)`
      : `${clear}(timer)\n${name}.splice(${name}.indexOf(timer), 1)`
  return {
    summary: `the program keeps each handle in ${name} but never clears it: when the work the timer guards ends, ${clear} it and take it out of ${name}.`,
    snippet: `// when the work ends\n${snippet}`
  }
}
