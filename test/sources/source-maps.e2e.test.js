// Source maps end to end: the service built now by tsc and esbuild, run, and its snapshots diffed,
// through the CLI for the external map; esbuild's names over a bundle it makes now; the CLI's
// answer to malformed source options. What the reports of the committed builds say in detail is
// source-maps.test.js's.
import test from 'ava'
import { build } from 'esbuild'
import { join } from 'node:path'
import { TraceMap } from '@jridgewell/trace-mapping'
import { compiledService } from '../helpers/compiled-service.js'
import { sharedDiff } from '../helpers/fixture-reports.js'
import { ROOT } from '../helpers/fixture-source.js'
import { leakdiff } from '../helpers/run-cli.js'
import { assertMapped } from '../helpers/service-leaks.js'
import { PROGRAM, ScriptNames } from '../../src/sources/original-names.js'

test('built now by tsc and esbuild and run: each leak at its .ts line; leakdiff --source-root and --source-maps find a moved bundle\'s map', async (t) => {
  const { tsc, inline, external, maps } = await compiledService({ live: true })
  const [fromTsc, fromInline] = await Promise.all([tsc, inline].map(({ files }) => sharedDiff(files, { top: 0, cwd: ROOT })))
  assertMapped(t, fromTsc, 'dist/handlers.js')
  assertMapped(t, fromInline, 'inline/server.js')
  const { stdout, stderr, code } = await leakdiff([...external.files, '--source-root', `${external.root}=${external.local}`, '--source-maps', maps, '--format', 'json', '--top', '0'])
  t.is(code, 1, stderr)
  assertMapped(t, JSON.parse(stdout), 'checkout/server.js')
})

test('a minifier reuses a short name in every scope: each binding gets the name its own scope\'s segments give', async (t) => {
  const built = await build({ entryPoints: [join(ROOT, 'fixtures/demo/leaky-server.js')], write: false, outfile: 'server.js', bundle: true, minify: true, platform: 'node', format: 'esm', sourcemap: 'external', logLevel: 'error' })
  const code = built.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? ''
  const map = new TraceMap(built.outputFiles.find((file) => file.path.endsWith('.map'))?.text ?? '{}')
  const names = ScriptNames.of(code, map)
  if (names === null) return t.fail('no names')
  // handleProduct(request, response) and the listen callback's `address` share short names.
  const handler = /function ([\w$]+)\(([\w$]+),([\w$]+)\)\{/.exec(code)
  const listen = /\(\)=>\{let ([\w$]+)=/.exec(code)
  if (handler === null || listen === null) return t.fail(code)
  const [, fn, request, response] = handler
  t.is(listen[1], request, 'the bundle reuses the name')
  const open = handler.index + handler[0].indexOf('(')
  t.is(names.functionName(fn, open), 'handleProduct')
  const scope = names.functionAt(open)
  t.is(names.bindingName(request, scope), 'request')
  t.is(names.bindingName(response, scope), 'response')
  t.is(names.bindingName(listen[1], names.functionAt(listen.index)), 'address')
  t.is(names.bindingName(request, PROGRAM), null, 'no top-level binding of that name')
  const cache = /var ([\w$]+)=new Map/.exec(code)
  t.is(names.bindingName(String(cache?.[1]), PROGRAM), 'responseCache')
  // A map that names nothing vouches for nothing; nor does a text shorter than the map (a copy cut at 1,024 characters).
  t.is(ScriptNames.of(code, new TraceMap({ ...JSON.parse(built.outputFiles.find((file) => file.path.endsWith('.map'))?.text ?? '{}'), names: [] })), null)
  t.is(ScriptNames.of(code.slice(0, 1024), map), null)
})

test('a malformed --source-root or a --source-maps that is no directory: one line, exit 2, nothing read', async (t) => {
  const cases = [['--source-root', 'app=.'], ['--source-root', '/app'], ['--source-maps', join(ROOT, 'README.md')]]
  const runs = await Promise.all(cases.map((args) => leakdiff(['a.heapsnapshot', 'b.heapsnapshot', ...args])))
  for (const [i, { stdout, stderr, code }] of runs.entries()) {
    t.is(code, 2, cases[i].join(' '))
    t.is(stdout, '')
    t.regex(stderr.split('\n')[0], /^leakdiff: --source-(root expects FROM=TO|maps expects a directory)/)
    t.notRegex(stderr, /\bat .*\.js:\d+/)
  }
})
