// A test preload (node --import) for the crash policy: on SIGUSR2 the process throws from a signal handler, or
// with OUTPOINT_TEST_FAULT=reject leaves a promise rejected, a fault no client input can cause.
process.on('SIGUSR2', () => {
  if (process.env.OUTPOINT_TEST_FAULT === 'reject') void Promise.reject(new Error('deliberate rejection (test preload)'));
  else throw new Error('deliberate fault (test preload)');
});
