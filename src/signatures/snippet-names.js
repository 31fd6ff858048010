// The names a fix's snippet gives the things it shows, the way a person would write them.

/**
 * A variable name for an object of a class in a snippet: `Interface` → `theInterface` (a reserved
 * word), `Stream` → `stream`, `PubSubAsyncIterableIterator` → `iterator`.
 * @param {string} className
 */
export function variableFor (className) {
  // The last word of a long class name reads as the variable a person would write.
  const word = /[A-Z][a-z\d]+$/.exec(className)?.[0]
  const base = !/^[A-Za-z_$][\w$]*$/.test(className) ? 'handle' : word !== undefined && word.length >= 4 ? word : className
  const name = base[0].toLowerCase() + base.slice(1)
  return RESERVED.has(name) ? `the${base[0].toUpperCase()}${base.slice(1)}` : name
}

const RESERVED = new Set(['interface', 'function', 'class', 'new', 'delete', 'default', 'package', 'private',
  'public', 'static', 'import', 'export', 'return', 'switch', 'case', 'this', 'var', 'let', 'const'])
