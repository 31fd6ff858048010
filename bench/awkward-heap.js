// A heap of shapes that make naive heap algorithms slow, for trying the engine on something other
// than the server heap: `node --max-old-space-size=8000 bench/awkward-heap.js <out.heapsnapshot>`
// (about 25 s and 3.4 GB; the snapshot is about 370 MB, 4.3 million nodes, 15 million edges).
// Then `/usr/bin/time -v leakdiff inspect <out.heapsnapshot>`.
//   - a linked list of 1.5 million links: each link holds the objects' shared hidden class, so
//     finding dominators by climbing the tree costs the square of the list's length;
//   - a Map of 500,000 entries, and an array of a million small objects (wide nodes);
//   - 200,000 objects of 20,000 different property lists (many interface candidates);
//   - a chain of 100,000 closures, each calling the one before (deep contexts).
import { writeHeapSnapshot } from 'node:v8'

const file = process.argv[2]
if (!file) throw new Error('Expected the output path: node bench/awkward-heap.js <out.heapsnapshot>')

let head = null
for (let i = 0; i < 1_500_000; i++) head = { next: head, i }
const map = new Map()
for (let i = 0; i < 500_000; i++) map.set('k' + i, { v: i })
const shapes = []
for (let i = 0; i < 200_000; i++) {
  const o = {}
  o['p' + (i % 20_000)] = i
  o.q = i
  shapes.push(o)
}
const wide = Array.from({ length: 1_000_000 }, (_, i) => ({ i }))
let fn = () => 0
for (let i = 0; i < 100_000; i++) {
  const previous = fn
  fn = () => previous() + 1
}
globalThis.keep = { head, map, shapes, wide, fn }
writeHeapSnapshot(file)
