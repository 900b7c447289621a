import { Agent } from "undici";
import { postReport, reportStream, type ReportStreamOrder } from "./report-posts";

// The reporters of the reports group in a process of their own (report-posts.ts starts it): in the bench's
// own process their work would share an event loop with the page's load generator and add
// to every page answer's measured time.

// Enough sockets for the reports in flight; a browser opens one per reporter, but a socket each
// would measure the machine's connection setup, not the app.
const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 5000 });

process.on("message", (order: ReportStreamOrder | "close") => {
  if (order === "close") {
    void dispatcher.close().finally(() => process.disconnect());
    return;
  }
  const post = (n: number) => postReport(order.baseUrl, dispatcher, order.domain, n);
  void reportStream(post, order.first, order.count, order.seconds).then((done) => process.send!(done));
});
