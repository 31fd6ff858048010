export { noLeak } from './soak/ava.js'
