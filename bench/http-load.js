// What the agent benches share: a steady HTTP load on a server under measurement, and watch mode
// run for measuring only.
import http from 'node:http'
import { HeapWatch } from '../src/agent/watch.js'
import { DEFAULT_WATCH } from '../src/agent/config.js'

/**
 * Watch mode as the agent runs it, but it never starts a series (every trigger is refused quietly
 * after the first) and says nothing.
 * @param {Partial<import('../src/agent/config.js').WatchConfig>} settings
 * @returns {HeapWatch}
 */
export function startMeasuringWatch (settings) {
  return new HeapWatch({ ...DEFAULT_WATCH, ...settings }, {
    emit: () => {},
    busy: () => false,
    memoryLimitBytes: null,
    preflight: async () => 'measuring only',
    startSeries: async () => {}
  }).start()
}

/**
 * @param {number} port
 * @returns {{stop: () => Promise<{start: number, end: number, error: boolean}[]>}}
 */
export function startLoad (port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  const state = { running: true }
  /** @type {{start: number, end: number, error: boolean}[]} */
  const requests = []
  const one = () => new Promise((resolve) => {
    const start = Date.now()
    http.get({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
      response.resume().on('end', () => { requests.push({ start, end: Date.now(), error: false }); resolve(undefined) })
    }).on('error', () => {
      // After a long pause the server's keep-alive timers fire before it reads the queued
      // requests, so it closes those sockets: the client sees ECONNRESET. Counted, not hidden.
      if (state.running) requests.push({ start, end: Date.now(), error: true })
      setTimeout(resolve, 10)
    })
  })
  const workers = Promise.all(Array.from({ length: 4 }, async () => {
    while (state.running) await one()
  }))
  return {
    stop: async () => {
      state.running = false
      agent.destroy()
      await workers
      return requests
    }
  }
}
