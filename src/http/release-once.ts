/**
 * A release that acts once however often it is called: pins and holds hand these out, and a
 * caller may release on several paths (a response's close, an error, a session's end).
 */
export function releaseOnce(release: () => void): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
