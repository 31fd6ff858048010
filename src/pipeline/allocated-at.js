// The allocation profiles beside the snapshots (the agent's `x.heapprofile`, named in the sidecar,
// or found by the snapshot's base name), turned into "allocated at" for the findings; a finding
// whose growth a package made moves to the program's line that called it (user-line.js). The tie
// itself is src/diff/alloc-stacks.js; this module reads the files and the script texts, and is
// the one place where a profile frame becomes a report location (frameLocation).

import { readFile, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { classScripts, findCallLines, findFunctionEnds, findGrowingStacks, tieStacks } from '../diff/alloc-stacks.js'
import { readableScriptName } from '../signatures/source-location.js'
import { callSnippet } from '../signatures/call-words.js'
import { scriptSyntax } from '../syntax/script-syntax.js'
import { callerLocation, findUserLine } from './user-line.js'
/** @import {AllocationsReport, AllocationStack, FrameLocation, GrowingStack, SamplingProfile, StackFrame, TieTarget} from '../diff/alloc-stacks.js' */
/** @import {Finding} from '../signatures/finding.js' */
/** @import {GrowthGroup} from '../diff/growth-groups.js' */
/** @import {HeapAnalysis} from '../analysis/analyze-heap.js' */
/** @import {DiffDetail, DiffResult} from '../diff/diff-heaps.js' */
/** @import {SnapshotMeta} from '../diff/snapshot-meta.js' */
/** @import {UserLine} from './user-line.js' */

/**
 * The sources layer's mapping of a script position to the original source; with `fn` (a
 * function's name and 0-based start), also the name the source map gives that function.
 * @typedef {(url: string, position: {line: number, column: number}, fn?: {name: string, line: number, column: number}) =>
 *   {file: string, line: number, column: number, snippet: string | null, function?: string} | null} MapPosition
 */

const MAX_STACKS_PER_FINDING = 5
const MAX_SCRIPT_BYTES = 16 * 1024 * 1024
const MAX_FRAMES = 24

/**
 * The allocation stacks of a diff, when profiles are beside its snapshots and the snapshots come
 * from one process (objects matched by id): sets `allocatedAt` on the findings and returns the
 * report's `allocations`; null otherwise (a profile that is there but unusable adds a warning).
 * @param {Array<string | unknown>} sources
 * @param {Array<SnapshotMeta | null>} metas  the sidecars
 * @param {{result: DiffResult, detail: DiffDetail | null, findings: Finding[], cwd: string, top: number, mapPosition?: MapPosition}} diff
 *   mapPosition: the sources layer's mapping of a script position to the original source
 * @returns {Promise<AllocationsReport | null>}
 */
export async function allocationsFor (sources, metas, { result, detail, findings, cwd, top, mapPosition }) {
  const sampled = await readAllocationProfiles(sources, metas)
  if (sampled.profiles === null) {
    if (sampled.warning) result.warnings.push(sampled.warning)
    return null
  }
  if (result.comparison !== 'ids') return null
  const intervalBytes = metas[metas.length - 1]?.allocationInterval ?? null
  return attachAllocations(sampled.profiles, sampled.paths, findings, result.growth, { cwd, intervalBytes, top, analysis: detail?.analyses.at(-1), mapPosition })
}

/**
 * Reads the profile beside each snapshot; null when any snapshot has none (or a source is a
 * stream). A profile that is there but unreadable is skipped with a warning.
 * @param {Array<string | unknown>} sources
 * @param {Array<{allocationProfile?: string | null, allocationRun?: string | null} | null>} sidecars
 * @returns {Promise<{profiles: SamplingProfile[], paths: string[]} | {profiles: null, warning?: string}>}
 */
export async function readAllocationProfiles (sources, sidecars) {
  const runs = new Set(sidecars.map((meta) => meta?.allocationRun).filter((run) => typeof run === 'string'))
  if (runs.size > 1) {
    return {
      profiles: null,
      warning: 'ignored the allocation profiles: they come from different sampling runs (the agent samples during each series; ' +
        'LEAKDIFF_ALLOC_SAMPLING=always keeps one run across series)'
    }
  }
  /** @type {SamplingProfile[]} */
  const profiles = []
  /** @type {string[]} */
  const paths = []
  for (const [i, source] of sources.entries()) {
    if (typeof source !== 'string') return { profiles: null }
    const named = sidecars[i]?.allocationProfile
    const beside = source.replace(/\.heapsnapshot(\.gz)?$/, '') + '.heapprofile'
    // The sidecar's name first; files renamed after the capture keep the snapshot's base name.
    const candidates = named ? [join(dirname(source), named), beside] : [beside]
    let path = ''
    let text = null
    for (const candidate of candidates) {
      try {
        text = await readFile(candidate, 'utf8')
        path = candidate
        break
      } catch {}
    }
    if (text === null) {
      // No profiles at all is the normal case for snapshots taken without sampling.
      return { profiles: null, warning: i > 0 && profiles.length > 0 ? `ignored the allocation profiles: ${candidates.join(' and ')} missing` : undefined }
    }
    /** @type {any} */
    let data
    try {
      data = JSON.parse(text)
    } catch {
      return { profiles: null, warning: `ignored the allocation profiles: ${path} is not JSON` }
    }
    const problem = profileProblem(data)
    if (problem !== null) return { profiles: null, warning: `ignored the allocation profiles: ${path} is not a sampling heap profile (${problem})` }
    profiles.push(data)
    paths.push(path)
  }
  return { profiles, paths }
}

/**
 * What makes `data` no sampling heap profile, or null: the nodes and samples are checked as far
 * as the tie reads them, so a damaged file is one warning, never a crash.
 * @param {any} data
 * @returns {string | null}
 */
function profileProblem (data) {
  if (data === null || typeof data !== 'object' || typeof data.head !== 'object' || data.head === null) return 'expected an object with head'
  if (!Array.isArray(data.samples)) return 'expected a samples array'
  for (const sample of data.samples) {
    if (!sample || !Number.isFinite(sample.size) || !Number.isFinite(sample.nodeId) || !Number.isFinite(sample.ordinal)) return 'expected each sample to have size, nodeId and ordinal'
  }
  const pending = [data.head]
  while (pending.length > 0) {
    const node = pending.pop()
    const frame = node?.callFrame
    if (!frame || typeof frame.functionName !== 'string' || typeof frame.url !== 'string' || !Number.isInteger(frame.lineNumber) ||
      !Number.isInteger(frame.columnNumber) || !Number.isFinite(node.id) || !Array.isArray(node.children)) {
      return 'expected each node to have id, children and a callFrame with functionName, url, lineNumber and columnNumber'
    }
    pending.push(...node.children)
  }
  return null
}

/**
 * Ties the growing stacks of the profiles to the findings: sets `allocatedAt` on each finding
 * (null when nothing ties) and returns the report's `allocations`.
 * @param {SamplingProfile[]} profiles
 * @param {string[]} paths
 * @param {Finding[]} findings  changed in place
 * @param {GrowthGroup[]} growth  the diff's rows, for the classes each owner holds
 * @param {{cwd: string, intervalBytes: number | null, top?: number, analysis?: HeapAnalysis, mapPosition?: MapPosition}} options
 *   analysis: the last snapshot's, for the scripts that define the findings' classes; mapPosition:
 *   frames in scripts with source maps are shown in the original source
 * @returns {Promise<AllocationsReport>}
 */
export async function attachAllocations (profiles, paths, findings, growth, { cwd, intervalBytes, top = 10, analysis, mapPosition }) {
  const stacks = findGrowingStacks(profiles)
  const sources = await readScripts(stacks)
  const sourceOf = (/** @type {string} */ url) => sources.get(url) ?? null
  findFunctionEnds(stacks, sourceOf)
  const targets = findings.map((finding) => tieTarget(finding, growth))
  if (analysis !== undefined) {
    const scripts = classScripts(analysis, new Set(targets.flatMap((target) => target.classes)))
    for (const target of targets) target.classScripts = target.classes.flatMap((name) => scripts.get(name) ?? [])
  }
  const ties = tieStacks(stacks, targets, (url) => readableScriptName(url, cwd))
  for (const [i, finding] of findings.entries()) {
    const tie = ties[i]
    if (tie === null) {
      finding.allocatedAt = null
      continue
    }
    const shown = tie.stacks.slice(0, MAX_STACKS_PER_FINDING).map((stack) => {
      const copy = { ...stack, frames: stack.frames.map((frame) => ({ ...frame })) }
      findCallLines(copy, sourceOf, targets[i].classes)
      return copy
    })
    const first = shown[0].frames
    // A constructor of a class the finding holds made the objects; the line to change is the one
    // that called it, so the site is the first frame of the user's code past the constructors.
    const held = new Set(targets[i].classes)
    let from = 0
    while (from < first.length - 1 && held.has(first[from].function)) from++
    const site = first.slice(from).find((frame) => frame.kind === 'user') ?? first[0]
    finding.allocatedAt = {
      site: site === undefined ? null : frameLocation(site, cwd, mapPosition),
      bytes: tie.bytes,
      samples: tie.samples,
      basis: [...tie.basis, 'sampled objects allocated after the first snapshot and alive at the last'],
      stacks: shown.map((stack) => stackReport(stack, cwd, mapPosition))
    }
    const line = findUserLine(finding, shown, { analysis, cwd })
    if (line !== null) moveToUserLine(finding, line, cwd, mapPosition, sourceOf)
  }
  const growing = (top === 0 ? stacks : stacks.slice(0, top)).map((stack) => {
    const copy = { ...stack, frames: stack.frames.map((frame) => ({ ...frame })) }
    findCallLines(copy, sourceOf, [])
    return stackReport(copy, cwd, mapPosition)
  })
  return { profiles: paths, intervalBytes, growing }
}

/**
 * @param {GrowingStack} stack
 * @param {string} cwd
 * @param {MapPosition} [mapPosition]
 * @returns {AllocationStack}
 */
function stackReport (stack, cwd, mapPosition) {
  return {
    frames: stack.frames.slice(0, MAX_FRAMES).map((frame) => frameLocation(frame, cwd, mapPosition)),
    bytes: stack.bytes,
    samples: stack.samples,
    steps: stack.steps,
    callers: stack.callers ?? 1
  }
}

/**
 * Where a profile frame points, for people: the one place a frame's script and line become a
 * report location (source maps apply here).
 * @param {StackFrame} frame
 * @param {string} cwd
 * @param {MapPosition} [mapPosition]
 * @returns {FrameLocation}
 */
export function frameLocation (frame, cwd, mapPosition) {
  const callLine = frame.callLine !== null
  /** @type {FrameLocation} */
  const location = {
    file: frame.url === '' ? '(native)' : readableScriptName(frame.url, cwd),
    line: callLine ? /** @type {number} */ (frame.callLine) + 1 : frame.lineNumber + 1,
    column: callLine ? 1 : frame.columnNumber + 1,
    function: frame.function,
    kind: frame.kind,
    callLine
  }
  // Frames of code built from other sources (tsc, a bundler) read as the source was written, the
  // way finding locations do: file, line and column are the original's, `generated` is what ran.
  // A call is mapped at its own column: in a minified bundle the whole program is one line.
  const at = callLine ? { line: location.line, column: (frame.callColumn ?? 0) + 1 } : location
  const fn = frame.function === '' ? undefined : { name: frame.function, line: frame.lineNumber, column: frame.columnNumber }
  const mapped = frame.kind === 'native' || mapPosition === undefined ? null : mapPosition(frame.url, at, fn)
  if (mapped === null) return location
  const { function: name, ...original } = mapped
  /** @type {FrameLocation} */
  const shown = { ...location, file: original.file, line: original.line, column: original.column, generated: { file: location.file, line: at.line, column: at.column }, original }
  if (name === undefined) return shown
  return { ...shown, function: name, generatedFunction: location.function }
}

/**
 * Puts a finding's location on the program's line that called into the package which made its
 * growth, with the package's frame beside it; the line stays in the code that ran, for the sources
 * layer to map as it maps every location. A fix given in the package's terms (`fix.atCall`) is
 * written again at that call, in the program's own words: its receiver, its key argument.
 * @param {Finding} finding  changed in place
 * @param {UserLine} line
 * @param {string} cwd
 * @param {MapPosition | undefined} mapPosition
 * @param {(url: string) => string | null} sourceOf  the texts of the stacks' scripts
 */
function moveToUserLine (finding, line, cwd, mapPosition, sourceOf) {
  const entry = frameLocation(line.entry, cwd, mapPosition)
  // A frame's call line read from the script that ran has column 1; the call's own column is known.
  const { callLine, callColumn } = line.entry
  const column = entry.generated === undefined && callLine !== null ? (callColumn ?? 0) + 1 : entry.column
  finding.location = {
    ...callerLocation(line.caller, cwd),
    inside: { package: line.package, file: entry.file, line: entry.line, column, function: entry.function }
  }
  finding.evidence = { ...finding.evidence, locationRole: `calls into ${line.package}` }
  const { atCall, ...fix } = finding.fix
  const text = atCall === undefined || line.caller.callLine === null ? null : sourceOf(line.caller.url)
  if (atCall === undefined || text === null) return
  const syntax = scriptSyntax(text)
  const call = syntax.callAt(syntax.offsetOf(/** @type {number} */ (line.caller.callLine), line.caller.callColumn ?? 0))
  if (call !== null) finding.fix = { ...fix, snippet: callSnippet(atCall, call) }
}

/**
 * What a finding offers to match stacks against.
 * @param {Finding} finding
 * @param {GrowthGroup[]} growth
 * @returns {TieTarget}
 */
function tieTarget (finding, growth) {
  const { evidence } = finding
  const classes = new Set()
  for (const row of growth) if (row.owner.id === finding.owner.id) for (const { name } of row.classes) classes.add(name)
  for (const key of ['valueClasses', 'elementClasses', 'keyClasses']) {
    const list = evidence[key]
    if (Array.isArray(list)) for (const name of list) if (typeof name === 'string') classes.add(name)
  }
  if (typeof evidence.holderClass === 'string') classes.add(evidence.holderClass)
  const module = finding.path.findLast((step) => typeof step.module === 'string')?.module ?? null
  const location = finding.location === null ? null : { file: finding.location.file, line: finding.location.line, function: finding.location.generatedFunction ?? finding.location.function }
  return { classes: [...classes], location, module }
}

/**
 * The texts of the scripts on the stacks that are files on this machine (`file://` URLs and
 * absolute paths); a script that cannot be read is left out, and its frames keep the line where
 * their function starts.
 * @param {GrowingStack[]} stacks
 * @returns {Promise<Map<string, string>>}
 */
async function readScripts (stacks) {
  /** @type {Map<string, string>} */
  const texts = new Map()
  const urls = new Set()
  for (const stack of stacks) for (const frame of stack.frames) if (frame.kind === 'user' || frame.kind === 'library') urls.add(frame.url)
  for (const url of urls) {
    let path = url
    try {
      if (url.startsWith('file://')) path = fileURLToPath(url)
    } catch {
      continue
    }
    if (!isAbsolute(path)) continue
    try {
      // A profile names any path: only regular files of script size are read (no devices, pipes).
      const info = await stat(path)
      if (info.isFile() && info.size <= MAX_SCRIPT_BYTES) texts.set(url, await readFile(path, 'utf8'))
    } catch {}
  }
  return texts
}
