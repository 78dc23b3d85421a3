/**
 * Whether an error is a module the browser could not download (./ErrorBoundary.tsx then offers a reload).
 */
/**
 * A chunk of the page's own code that did not download (Chrome's, Firefox's and Safari's words; Vite's for a
 * stylesheet): not a bug, but a page older than its server's files, or no network.
 */
export function notDownloaded(e: Error): boolean {
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    e.message,
  );
}
