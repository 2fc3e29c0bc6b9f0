/**
 * Runs of the scale benches were seen to stay alive for minutes after their figures (the service, the stand-in node
 * and PostgreSQL already gone), holding the bench lock: whatever handle is left is named, then the process ends.
 */
export function endAfterFigures(): void {
  setTimeout(() => {
    console.log(`  still running 10 s after the end (${process.getActiveResourcesInfo().join(', ')}): exiting`);
    process.exit(0);
  }, 10_000).unref();
}
