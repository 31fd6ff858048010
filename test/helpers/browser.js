// A headless Chromium for the HTML report's tests: LEAKDIFF_CHROMIUM names a local browser,
// otherwise @sparticuz/chromium unpacks the one it ships. In CI (CI=true) a browser that is missing
// or does not start fails the tests; elsewhere they are skipped with a message saying why.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { scaledMs } from './load-deadline.js'

/** Playwright's limit for one step on a page (30 s by default), on an idle machine. */
export const PAGE_STEP_MS = 30_000

/** Where the tests leave what a person may want to look at (screenshots); ignored by git. */
export const TEST_OUTPUT = fileURLToPath(new URL('../output/', import.meta.url))

const RELAXED = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content'])

/**
 * @returns {Promise<{browser: import('playwright-core').Browser | null, reason: string}>}
 */
export async function launchBrowser () {
  try {
    let executablePath = process.env.LEAKDIFF_CHROMIUM
    let args = /** @type {string[]} */ ([])
    if (!executablePath) {
      const { default: sparticuz } = await import('@sparticuz/chromium')
      executablePath = await sparticuz.executablePath()
      // Its flags are made for a serverless function: one process (a closed page ends the browser
      // there) and the same-origin policy off. Tests want the browser a reader opens the report in.
      // Software GL draws nothing a report needs and costs seconds of CPU per full-page screenshot.
      args = [...sparticuz.args.filter((arg) => !RELAXED.has(arg)), '--disable-gpu']
    }
    const browser = await chromium.launch({ executablePath, args, headless: true, timeout: scaledMs(60_000) })
    mkdirSync(TEST_OUTPUT, { recursive: true })
    return { browser, reason: '' }
  } catch (error) {
    const reason = `no headless Chromium (set LEAKDIFF_CHROMIUM to a browser): ${/** @type {Error} */ (error).message.split('\n')[0]}`
    if (process.env.CI === 'true') throw new Error(reason, { cause: error })
    return { browser: null, reason }
  }
}
