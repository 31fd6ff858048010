// The signatures' ids in the order they are tried (index.js), apart from the matchers: what only
// names them (the CLI's --fail-on, checked before any snapshot is read) loads none of the matching.
export const SIGNATURE_IDS = Object.freeze([
  'middleware-accumulation',
  'listener-accumulation',
  'forgotten-timer',
  'async-context-retention',
  'pending-promises',
  'retained-sockets',
  'open-handles',
  'closure-retention',
  'unbounded-collection',
  'growing-array',
  'prototype-chain',
  'growing-queue'
])
