/** The four instructions of the specification, for "down only for you". */
const STEPS = [
  {
    title: "Use another browser",
    body: "Check whether the same problem occurs in a different web browser. If it does, continue with the instructions below.",
  },
  {
    title: "Use the site's IP address",
    body: "Every site has a unique IP address. Try opening the site by its IP address. If the address carries a colon followed by a port number (such as :8080), remove that part, or replace the number with 80. If that fails too, the address may be wrong.",
  },
  {
    title: "Check that your DNS cache is valid",
    body: "DNS converts a domain name to an IP address, and your device caches the answer. A corrupt cache, or a changed IP address of the site, can send your browser to the wrong server. Flush your DNS cache and try again.",
  },
  {
    title: "Check whether the site is blocked for you",
    body: "Check that an administrator does not block such sites, and check your proxy settings. In your operating system's internet options, open the Security tab's Restricted sites list and remove the site if it is listed. Then open the Privacy tab, open its Sites list and remove the site if it is listed.",
  },
] as const;

export function Troubleshooting({ domain, emphasised = false }: { domain: string; emphasised?: boolean }) {
  return (
    <section
      className={emphasised ? "card troubleshooting emphasised" : "card troubleshooting"}
      aria-labelledby="troubleshooting-heading"
      id="troubleshooting"
    >
      <h2 id="troubleshooting-heading">Is {domain} down only for you? Try this</h2>
      <ol>
        {STEPS.map((step) => (
          <li key={step.title}>
            <h3>{step.title}</h3>
            <p>{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
