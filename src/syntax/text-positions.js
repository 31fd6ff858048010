// Offsets in a script's text and the lines and columns people and V8 give (0-based here; reports
// add 1). A bundle is a few long lines and a server's file thousands of short ones: the line
// starts are found once per text and searched by halving.

/**
 * Offsets at which each line starts.
 * @param {string} text
 * @returns {number[]}
 */
export function lineStarts (text) {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/**
 * The 0-based line and column of an offset.
 * @param {number[]} starts from lineStarts
 * @param {number} offset
 * @returns {{line: number, column: number}}
 */
export function positionOf (starts, offset) {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return { line: lo, column: offset - starts[lo] }
}
