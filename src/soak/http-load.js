// The built-in load of `leakdiff soak --requests URL`: GETs to a service on this machine.
import http from 'node:http'
import { InvalidArgumentError } from '../errors.js'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/**
 * @typedef {object} LoadStats
 * @property {number} sent
 * @property {number} failed      requests that got no response (refused, reset, timed out)
 * @property {Record<string, number>} statuses  responses by status code
 * @property {string | null} firstError
 */

/**
 * Checks a load or readiness URL: plain http to this machine only. The soak runner starts the
 * service itself, so a remote host is a mistake, and one that would send load to someone else.
 * @param {string} text
 * @param {string} name  the option's name, for the message
 * @returns {URL}
 */
export function loopbackUrl (text, name) {
  let url
  try {
    url = new URL(text)
  } catch {
    throw new InvalidArgumentError(`Expected \`${name}\` to be a URL like http://127.0.0.1:3000/, got \`${text}\``)
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) {
    throw new InvalidArgumentError(`Expected \`${name}\` to be an http:// URL on this machine (127.0.0.1, localhost or [::1]), got \`${text}\``)
  }
  return url
}

/**
 * Sends `count` GET requests, `concurrency` at a time, over keep-alive connections that are all
 * closed at the end (so the service has no connection of this round left open at the snapshot).
 * Bodies are read and dropped.
 * @param {URL} url
 * @param {{count: number, concurrency?: number, timeoutMs?: number, abortSignal?: AbortSignal}} options
 * @returns {Promise<LoadStats>}
 */
export async function sendRequests (url, { count, concurrency = 8, timeoutMs = 10_000, abortSignal }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  /** @type {LoadStats} */
  const stats = { sent: 0, failed: 0, statuses: {}, firstError: null }
  let next = 0
  const worker = async () => {
    while (next < count && !abortSignal?.aborted) {
      next++
      stats.sent++
      try {
        const status = await get(url, agent, timeoutMs)
        stats.statuses[status] = (stats.statuses[status] ?? 0) + 1
      } catch (error) {
        stats.failed++
        stats.firstError ??= error instanceof Error ? error.message : String(error)
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  } finally {
    agent.destroy()
  }
  return stats
}

/**
 * Whether `url` answers at all with a status below 500.
 * @param {URL} url
 * @param {number} timeoutMs
 * @returns {Promise<boolean>}
 */
export async function answers (url, timeoutMs) {
  const agent = new http.Agent({ keepAlive: false })
  try {
    return (await get(url, agent, timeoutMs)) < 500
  } catch {
    return false
  } finally {
    agent.destroy()
  }
}

/**
 * @param {URL} url
 * @param {http.Agent} agent
 * @param {number} timeoutMs
 * @returns {Promise<number>} the status code, once the body is read
 */
function get (url, agent, timeoutMs) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.on('error', reject)
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.resume()
    })
    request.on('error', reject)
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`no response within ${timeoutMs} ms`)))
  })
}
