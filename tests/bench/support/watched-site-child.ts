import { startInstantSite, startNoNamesDns } from "./targets";

// The watch group's probed site and resolver in a process of their own (targets.ts starts it):
// in the bench's own process, every background round's handshakes and answers would share an
// event loop with the page's load generator and add to the page answers' measured time.

void Promise.all([startInstantSite(), startNoNamesDns()]).then(([site, dns]) => {
  const started = process.cpuUsage();
  process.send!({ routes: site.routes(), dnsAddress: dns.address, caFile: site.caFile });
  process.once("message", () => {
    const used = process.cpuUsage(started);
    const cpuMs = (used.user + used.system) / 1000;
    void Promise.all([site.close(), dns.close()]).finally(() => process.send!({ cpuMs }, () => process.disconnect()));
  });
});
