// The `leakdiff/ava` macro. AVA 7 takes any object with an `exec` function (and an optional
// `title`) as a macro; `test.macro()` returns exactly that. Building the object here, rather than
// importing 'ava', ties the macro to no copy of AVA: it works with the AVA that runs the test file,
// and importing it outside a test run does not throw.
import { assertNoLeak } from './assert-no-leak.js'
/** @import {AssertNoLeakOptions} from './assert-no-leak.js' */

/**
 * The part of AVA's execution context the macro uses.
 * @typedef {object} ExecutionContext
 * @property {(message?: string) => void} pass
 * @property {(message?: string) => void} fail
 * @property {(message: string) => void} log
 * @property {(ms: number, message?: string) => void} timeout
 */

/**
 * @typedef {AssertNoLeakOptions & {timeout?: number}} NoLeakOptions
 *   timeout: the test's timeout in milliseconds (default 120000: three snapshots and their
 *   analysis take seconds, more than AVA's default of 10 s)
 */

/**
 * `test('handler does not leak', noLeak, async (i) => { ... }, { iterations: 2000 })`: passes when
 * assertNoLeak resolves; fails with the text report (finding cards with their source lines) when
 * it finds a leak. Other errors (from the function under test, or bad options) fail the test as
 * thrown errors.
 */
export const noLeak = Object.freeze({
  /**
   * @param {ExecutionContext} t
   * @param {(i: number) => unknown} fn
   * @param {NoLeakOptions} [options]
   */
  async exec (t, fn, options = {}) {
    const { timeout = 120_000, ...rest } = options
    t.timeout(timeout, 'assertNoLeak did not finish')
    try {
      const report = await assertNoLeak(fn, rest)
      t.pass(`no leak: ${report.reason}`)
    } catch (error) {
      if (/** @type {{code?: unknown}} */ (error)?.code !== 'LEAKDIFF_LEAK') throw error
      // AVA prints a failure's message twice (beside the title and in the details) but a log once:
      // the reason is the message, the report (cards, tables) the log.
      const message = /** @type {Error} */ (error).message
      const end = message.indexOf('\n\n')
      if (end !== -1) t.log(message.slice(end + 2).trimEnd())
      t.fail(end === -1 ? message : message.slice(0, end))
    }
  },
  /**
   * @param {string | undefined} provided
   * @returns {string}
   */
  title (provided) {
    return provided ?? 'does not leak'
  }
})
