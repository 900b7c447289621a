import dgram from "node:dgram";
import dnsPacket from "dns-packet";

// A real, tiny authoritative DNS server on 127.0.0.1 (UDP, port 0) for the dns tester's tests.

/** Addresses of a name; a function answers differently per query (n counts from 0), as a rebinding attacker's server does. */
type Answer = string[] | ((n: number) => string[]);
export type DnsRecords = Record<string, { A?: Answer; AAAA?: Answer }>;

/** normal: answer from the records; servfail: SERVFAIL to everything; silent: never answer. */
export type DnsServerMode = "normal" | "servfail" | "silent";

export interface TestDnsServer {
  /** "127.0.0.1:<port>", the form the dns tester's `resolver` option takes. */
  address: string;
  /** Every question received, as "A shop.example.test". */
  queries: string[];
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

function respond(
  query: dnsPacket.DecodedPacket,
  records: DnsRecords,
  mode: DnsServerMode,
  asked: Map<string, number>,
  ttl: number,
): Buffer {
  const question = query.questions?.[0];
  const entry = question ? records[normalize(question.name)] : undefined;
  let rcode: number = entry ? RCODE.NOERROR : RCODE.NXDOMAIN;
  if (mode === "servfail") rcode = RCODE.SERVFAIL;
  const type = question?.type;
  const key = `${type} ${normalize(question?.name ?? "")}`;
  const n = asked.get(key) ?? 0;
  asked.set(key, n + 1);
  const answer = rcode === RCODE.NOERROR && (type === "A" || type === "AAAA") ? (entry?.[type] ?? []) : [];
  const data = typeof answer === "function" ? answer(n) : answer;
  const answers: dnsPacket.Answer[] = data.map((address) => ({
    type: type === "AAAA" ? "AAAA" : "A",
    name: question?.name ?? "",
    ttl,
    data: address,
  }));
  return dnsPacket.encode({
    type: "response",
    id: query.id,
    flags: dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_DESIRED | rcode,
    questions: query.questions,
    answers,
  });
}

export async function startDnsServer(records: DnsRecords, options: { mode?: DnsServerMode; ttl?: number } = {}): Promise<TestDnsServer> {
  const mode = options.mode ?? "normal";
  const asked = new Map<string, number>();
  const normalized: DnsRecords = Object.fromEntries(Object.entries(records).map(([name, r]) => [normalize(name), r]));
  const queries: string[] = [];
  const socket = dgram.createSocket("udp4");
  socket.on("message", (message, peer) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // not DNS: ignore, as a real server would
    }
    for (const question of query.questions ?? []) queries.push(`${question.type} ${normalize(question.name)}`);
    if (mode === "silent") return;
    socket.send(respond(query, normalized, mode, asked, options.ttl ?? 60), peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => {
      socket.off("error", reject);
      resolve();
    });
  });
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
