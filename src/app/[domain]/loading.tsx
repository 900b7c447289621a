/**
 * The status page's shell until its domain is known: Next renders it once, keeps it, and streams
 * it first to every first visit while that visit's page is rendered around its check.
 */
export default function Loading() {
  return (
    <p className="checking card" role="status" data-loading="">
      Checking…
    </p>
  );
}
