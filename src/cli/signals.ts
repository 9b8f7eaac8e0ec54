/** How the long-running CLI commands (serve, proxy, the inspector app) learn to stop. */

/** Resolves on the first SIGINT or SIGTERM, then stops listening for them. */
export function signalled(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
}
