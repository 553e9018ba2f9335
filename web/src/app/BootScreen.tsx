/**
 * What shows before the app can run: while /config.json loads, or when it could not be loaded.
 * index.html holds the loading state as HTML, painted before any script arrives: keep the two alike.
 */
export function BootScreen({ failed }: { failed: boolean }) {
  return (
    <main className="boot-screen">
      <p className="logo">OddJobs</p>
      {failed ? (
        <p role="alert">The app could not start. Please check your connection and reload the page.</p>
      ) : (
        <p role="status">Loading...</p>
      )}
    </main>
  );
}
