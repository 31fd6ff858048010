// A worker thread's side of the main thread's series (thread-relay.js): join, write when told,
// end when told. Every path is guarded; a refusal or failure ends this thread's part only.
import { basename } from 'node:path'
import { CaptureError } from '../errors.js'
import { describeError } from './capture-snapshot.js'
import { seriesFileNames } from './file-names.js'
/** @import {AgentConfig} from './config.js' */
/** @import {OpenSeries, SeriesWriter} from './series-writer.js' */
/** @import {ThreadInfo} from './thread-info.js' */
/** @import {RelayedSeries, WorkerSide} from './thread-relay.js' */

/**
 * The worker side of a worker thread's agent.
 * @param {object} agent
 * @param {SeriesWriter} agent.writer  writes this thread's part of each series
 * @param {Readonly<AgentConfig>} agent.config
 * @param {() => ThreadInfo} agent.thread
 * @param {() => boolean} agent.stopped  whether the agent was stopped
 * @returns {WorkerSide}
 */
export function workerSide ({ writer, config, thread, stopped }) {
  /** @type {{mainId: string, series: OpenSeries | null, begin: RelayedSeries} | null} */
  let joined = null
  return {
    begin: async (begin) => {
      if (stopped() || writer.current !== null) return null
      const plan = seriesFileNames({ dir: config.dir, pid: process.pid, startedAt: new Date(begin.startedAt), count: begin.count, gzip: config.gzip, threadId: thread().id })
      joined = { mainId: begin.mainId, series: null, begin }
      return { seriesFile: basename(plan.seriesFile) }
    },
    write: async (mainId, index) => {
      if (joined === null || joined.mainId !== mainId) return { ok: false, error: 'not part of this series' }
      try {
        if (joined.series === null) {
          if (writer.current !== null || stopped()) throw new CaptureError('Expected an idle agent, but this thread is busy or stopped')
          const { count, intervalMs, startedAt, trigger } = joined.begin
          joined.series = writer.open({ count, intervalMs, trigger, startedAt: new Date(startedAt), mainSeries: mainId })
          await writer.prepare(joined.series)
        }
        const captured = await writer.writeOne(joined.series, index, false)
        return { ok: true, snapshot: basename(captured.path) }
      } catch (error) {
        const series = joined.series
        joined = null
        if (series !== null) await writer.close(series, series === null ? error : writer.asFailure(error, series), false)
        return { ok: false, error: describeError(error) }
      }
    },
    end: async (mainId, status) => {
      if (joined === null || joined.mainId !== mainId || joined.series === null) return null
      const series = joined.series
      joined = null
      const complete = status === 'complete' && series.result.snapshots.length === series.count
      const failure = complete ? null : new CaptureError(`Expected ${series.count} snapshots, but the main thread's series ${mainId} ended ${status} after ${series.result.snapshots.length}`)
      await writer.close(series, failure, false)
      return { status: series.record.status, error: series.record.error }
    }
  }
}
