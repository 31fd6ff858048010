import test from 'ava'
import { WriteCostModel } from '../../src/agent/write-cost.js'

const MB = 1e6

test('before any write: a floor plus a factor of heapUsed; file ~3x heapUsed', (t) => {
  const model = new WriteCostModel({ headroomFactor: 10, headroomFloorBytes: 32 * MB })
  t.is(model.estimateMemory(4 * MB), 72 * MB)
  t.is(model.estimateFile(10 * MB), 30 * MB + 8 * 1024 * 1024)
})

test('a measured write replaces the guess for the heap it saw; new heap is charged at the higher rate', (t) => {
  const model = new WriteCostModel({ headroomFactor: 10, headroomFloorBytes: 32 * MB })
  // A heap of numbers: cheap to write.
  model.learn({ heapUsed: 100 * MB, peakExtraBytes: 40 * MB, peakExact: true, fileBytes: 4 * MB })
  t.is(model.estimateMemory(100 * MB), 50 * MB)
  t.is(model.estimateMemory(110 * MB), 150 * MB)
  t.is(model.estimateFile(100 * MB), 5 * MB)
  // A heap of small objects in one array: far above the default factor.
  const costly = new WriteCostModel({ headroomFactor: 10, headroomFloorBytes: 32 * MB })
  costly.learn({ heapUsed: 40 * MB, peakExtraBytes: 1400 * MB, peakExact: true, fileBytes: 98 * MB })
  t.is(costly.estimateMemory(50 * MB), 1750 * MB + 350 * MB)
})

test('a write below the old high-water mark teaches nothing about memory; a cheaper exact one does not lower it', (t) => {
  const model = new WriteCostModel({ headroomFactor: 10, headroomFloorBytes: 32 * MB })
  model.learn({ heapUsed: 10 * MB, peakExtraBytes: 5 * MB, peakExact: false, fileBytes: 20 * MB })
  t.is(model.estimateMemory(10 * MB), 132 * MB)
  model.learn({ heapUsed: 10 * MB, peakExtraBytes: 80 * MB, peakExact: true, fileBytes: 20 * MB })
  model.learn({ heapUsed: 10 * MB, peakExtraBytes: 4 * MB, peakExact: true, fileBytes: 20 * MB })
  t.is(model.estimateMemory(10 * MB), 100 * MB)
})
