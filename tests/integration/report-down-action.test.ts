import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it, vi } from "vitest";
import type { ReportDownState } from "@/lib/report-down-state";
import { withReportDatabase } from "./helpers/report-database";

// "It's down for me" as the page posts it: the action runs for real against the database and
// the real offline network lookup; only Next's request scope (the request's headers, its
// cookie jar, the cache, `after`) is stood in for, since it exists only inside `next start`.
// Each call gets its own headers (an async scope), so calls may run side by side.
const request = vi.hoisted(() => ({
  scope: undefined as unknown as import("node:async_hooks").AsyncLocalStorage<Headers>,
  updatedTags: [] as string[],
  revalidated: [] as { tag: string; profile: unknown }[],
  later: [] as (() => Promise<void>)[],
  answer: null as null | ((question: unknown) => Promise<unknown>),
}));
vi.mock("next/headers", () => ({
  headers: async () => request.scope.getStore() ?? new Headers(),
  cookies: async () => ({ get: () => undefined, set: () => undefined }),
}));
vi.mock("next/cache", () => ({
  updateTag: (tag: string) => void request.updatedTags.push(tag),
  revalidateTag: (tag: string, profile: unknown) => void request.revalidated.push({ tag, profile }),
}));
vi.mock("next/server", async (original) => ({
  ...(await original()),
  after: (task: () => Promise<void>) => void request.later.push(task),
}));
// The network-check part answers for real unless a test stands in a failure or an answer.
vi.mock("@/server/crowd/network-check/answer", async (original) => {
  const real = await original<typeof import("@/server/crowd/network-check/answer")>();
  return {
    answerForVisitorNetwork: (...args: Parameters<typeof real.answerForVisitorNetwork>) =>
      (request.answer ?? real.answerForVisitorNetwork)(...args),
  };
});
request.scope = new AsyncLocalStorage<Headers>();

let action: typeof import("@/server/serving/actions/report-down").reportDownAction;
let db: import("@/server/db").Db;

withReportDatabase(async (database) => {
  action = (await import("@/server/serving/actions/report-down")).reportDownAction;
  db = database;
});

const idle: ReportDownState = { status: "idle", message: "" };
let siteCounter = 0;
const newDomain = () => `crowd-${++siteCounter}.example.com`;

/** Posts the form for `domain` from `address`, which came through one proxy (TRUST_PROXY_HOPS=1). */
function report(
  address: string,
  domain: string | undefined,
  problem?: string | Blob,
  forwardedBefore: string[] = [],
): Promise<ReportDownState> {
  const form = new FormData();
  if (domain !== undefined) form.set("domain", domain);
  if (problem !== undefined) form.set("problem", problem);
  const headers = new Headers({ "x-forwarded-for": [...forwardedBefore, address, "127.0.0.1"].join(", ") });
  return request.scope.run(headers, () => action(idle, form));
}

const rowsOf = (domain: string) =>
  db.visitorReport.findMany({
    where: { site: { domain } },
    select: { problem: true, country: true, asn: true, asnName: true },
    orderBy: { id: "asc" },
  });

describe("reportDownAction: what a report stores", () => {
  it("stores the chosen problem, and a form without one as 'won't load'", async () => {
    const domain = newDomain();
    expect(await report("192.0.2.10", domain, "login")).toEqual({
      status: "success",
      message: "Thanks — your report counts for the next 24 hours; the page adds it within a minute or two.",
      problem: "login",
    });
    expect(await report("192.0.2.11", domain)).toMatchObject({ status: "success", problem: "load" });
    expect((await rowsOf(domain)).map((row) => row.problem)).toEqual(["login", "load"]);
  });

  it.each([
    ["an unknown problem", "down"],
    ["an empty choice", ""],
    ["a problem in capitals", "SLOW"],
    ["a file instead of a choice", new Blob(["slow"])],
  ])("refuses %s with a field error and stores nothing", async (_name, problem) => {
    const domain = newDomain();
    const answer = await report("192.0.2.12", domain, problem);
    expect(answer).toEqual({
      status: "error",
      message: "Choose what fails from the list.",
      fieldErrors: { problem: ["Choose what fails from the list."] },
    });
    expect(await rowsOf(domain)).toEqual([]);
  });

  it.each([
    ["Google's public resolver", "8.8.8.8", { country: "US", asn: 15169 }],
    ["Google's public resolver over IPv6", "2001:4860:4860::8888", { country: "US", asn: 15169 }],
    ["TEST-NET-1 (documentation)", "192.0.2.55", { country: null, asn: null, asnName: null }],
    ["TEST-NET-3 (documentation)", "203.0.113.9", { country: null, asn: null, asnName: null }],
    ["IPv6 documentation", "2001:db8::7", { country: null, asn: null, asnName: null }],
  ])("records the country and network of %s (%s) from X-Forwarded-For", async (_name, address, expected) => {
    const domain = newDomain();
    expect(await report(address, domain, "app")).toMatchObject({ status: "success" });
    const [row] = await rowsOf(domain);
    expect(row).toMatchObject(expected);
    if (expected.asn === 15169) expect(row.asnName).toMatch(/google/i);
  });

  it("takes the address the trusted proxy saw, not one the visitor wrote before it", async () => {
    const domain = newDomain();
    await report("192.0.2.56", domain, "slow", ["8.8.8.8"]);
    expect(await rowsOf(domain)).toEqual([{ problem: "slow", country: null, asn: null, asnName: null }]);
  });

  it("never keeps the address, in the report or in the gate that spaces a visitor's reports", async () => {
    const domain = newDomain();
    await report("8.8.4.4", domain, "other");
    const site = await db.site.findUniqueOrThrow({ where: { domain }, select: { id: true } });
    const stored = JSON.stringify([
      await db.visitorReport.findMany({ where: { siteId: site.id } }),
      await db.reportGate.findMany({ where: { siteId: site.id } }),
    ]);
    expect(stored).not.toContain("8.8.4.4");
    expect(stored).not.toMatch(/\b8\.8\b/);
  });
});

describe("reportDownAction: what it refuses", () => {
  it.each([
    [undefined, "The form lost its website; reload the page."],
    ["127.0.0.1", "That is an IP address; enter a domain name such as example.com."],
    ["https://localhost/path", "That name is reserved for local or private networks and has no public website."],
  ])("refuses the domain %j with a clear message", async (domain, message) => {
    expect(await report("192.0.2.101", domain, "load")).toMatchObject({ status: "error", message });
  });

  it("slows down one visitor reporting many sites in a burst", async () => {
    const results = [];
    for (const tld of ["com", "net", "org", "de", "fr", "nl"]) results.push(await report("192.0.2.102", `burst.${tld}`));
    expect(results.slice(0, 5).every((result) => result.status === "success")).toBe(true);
    expect(results[5].message).toMatch(/^Too many reports at once; try again in \d+ seconds\.$/);
  });
});

describe("reportDownAction: one report per visitor and site per 15 minutes", () => {
  it("refuses a second report of the site whatever problem it names, and takes another site's", async () => {
    const [domain, other] = [newDomain(), newDomain()];
    expect(await report("198.51.100.20", domain, "slow")).toMatchObject({ status: "success" });
    expect(await report("198.51.100.20", domain, "login")).toEqual({
      status: "error",
      message: `You reported ${domain} a moment ago; you can report it again in 15 minutes.`,
      problem: "login",
    });
    expect(await report("198.51.100.20", other, "login")).toMatchObject({ status: "success" });
    expect((await rowsOf(domain)).map((row) => row.problem)).toEqual(["slow"]);
  });

  it("stores every report of a crowd of 200 distinct addresses reporting one site at once", async () => {
    const domain = newDomain();
    const updatesBefore = request.updatedTags.length;
    const laterBefore = request.later.length;
    const crowd = Array.from({ length: 200 }, (_, i) => report(`100.64.${i >> 8}.${i & 255}`, domain, i % 2 ? "slow" : "load"));
    const answers = await Promise.all(crowd);
    expect(answers.filter((answer) => answer.status !== "success")).toEqual([]);
    expect(await db.visitorReport.count({ where: { site: { domain } } })).toBe(200);
    // The page is refreshed for the first report and once more for all the others, not 200 times.
    expect(request.updatedTags.slice(updatesBefore)).toEqual([`reports:${domain}`]);
    expect(request.later.length - laterBefore).toBe(1);
  });
});

describe("reportDownAction: the page's reports during a rush", () => {
  it("refreshes at once after a quiet spell, then once at the end of the interval for all reports inside it", async () => {
    const domain = newDomain();
    const tag = `reports:${domain}`;
    await report("198.51.100.30", domain);
    expect(request.updatedTags.at(-1)).toBe(tag);
    const laterBefore = request.later.length;
    await report("198.51.100.31", domain);
    await report("198.51.100.32", domain);
    expect(request.updatedTags.filter((updated) => updated === tag)).toHaveLength(1);
    expect(request.later.length - laterBefore).toBe(1);

    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const planned = request.later.at(-1)!();
      await vi.advanceTimersByTimeAsync(10_000);
      await planned;
    } finally {
      vi.useRealTimers();
    }
    expect(request.revalidated.at(-1)).toEqual({ tag, profile: { expire: 0 } });
  });
});

describe("reportDownAction: 'only your network?'", () => {
  it("asks about the reporter's network and puts the answer in the state", async () => {
    const domain = newDomain();
    const answer = {
      scope: "asn:15169",
      scopeLabel: "AS15169 (Google)",
      failing: 2,
      working: 1,
      total: 3,
      likely: "provider",
      measuredAt: new Date().toISOString(),
    };
    const questions: unknown[] = [];
    request.answer = async (question) => (questions.push(question), answer);
    try {
      expect(await report("192.0.2.60", domain, "load")).toMatchObject({ status: "success", network: answer });
    } finally {
      request.answer = null;
    }
    expect(questions).toEqual([{ domain, network: { country: null, asn: null, asnName: null }, visitor: "192.0.2.60" }]);
  });

  it("keeps the stored report and thanks the reporter when the answer fails", async () => {
    const domain = newDomain();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    request.answer = async () => {
      throw new Error("Globalping went away");
    };
    try {
      const answer = await report("192.0.2.61", domain, "slow");
      expect(answer).toMatchObject({ status: "success", problem: "slow" });
      expect(answer).not.toHaveProperty("network");
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(domain), expect.any(Error));
    } finally {
      request.answer = null;
      logged.mockRestore();
    }
    expect(await rowsOf(domain)).toHaveLength(1);
  });
});
