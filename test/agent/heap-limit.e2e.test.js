// What only a real process shows of the heap limit (src/agent/heap-limit.js): with its flags,
// V8's heap_size_limit less the young generation's reserve is exactly --max-old-space-size.
import test from 'ava'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)
const MODULE = new URL('../../src/agent/heap-limit.js', import.meta.url).href
const PRINT = `import(${JSON.stringify(MODULE)}).then(({ heapLimit }) => console.log(heapLimit().bytes / 2 ** 20))`

for (const flags of [['--max-old-space-size=128'], ['--max-old-space-size=96', '--max-semi-space-size=32'], ['--max-old-space-size=300', '--max-semi-space-size=8']]) {
  test(`node ${flags.join(' ')}: the limit found is --max-old-space-size`, async (t) => {
    const { stdout } = await run(process.execPath, [...flags, '-e', PRINT], { env: { ...process.env, NODE_OPTIONS: '' } })
    t.is(Number(stdout.trim()), Number(/=(\d+)/.exec(flags[0])?.[1]))
  })
}

test('the flag in NODE_OPTIONS counts as on the command line', async (t) => {
  const { stdout } = await run(process.execPath, ['-e', PRINT], { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=200 --max-semi-space-size=4' } })
  t.is(Number(stdout.trim()), 200)
})
