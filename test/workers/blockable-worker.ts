// The real worker entry point, plus a way for a test to block its main loop: SIGUSR2 starts CPU work that never
// yields (as a page read on the main loop did before issue 22).
process.on('SIGUSR2', () => {
  const forever = Number.POSITIVE_INFINITY;
  while (Date.now() < forever) {
    // spin
  }
});
await import('../../workers/main.js');
