export default {
  files: ['test/**/*.test.js'],
  timeout: '2m',
  workerThreads: false
}
