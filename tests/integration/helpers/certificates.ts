import { generate } from "selfsigned";

// Certificates made at test time, so none expire in the repository and none is ever trusted
// outside the test that made it. EC keys: a P-256 key takes milliseconds, an RSA one a second.

export interface CertificatePems {
  key: string;
  /** The leaf certificate the server presents. */
  cert: string;
  /** The CA that signed the leaf, for the client to trust; absent for a self-signed leaf. */
  ca?: string;
}

export interface CertificateRequest {
  hostname: string;
  /** notAfter one day in the past. */
  expired?: boolean;
  /** notAfter this many days in the past (overrides `expired`). */
  expiredDaysAgo?: number;
  /** A leaf signed by its own key, with no CA a client could be given. */
  selfSigned?: boolean;
  /** The CA that signs the leaf (many leaves, one CA to trust); by default a new one per leaf. */
  authority?: CertificateAuthority;
}

export interface CertificateAuthority {
  key: string;
  cert: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function makeCertificate({
  hostname,
  expired = false,
  expiredDaysAgo,
  selfSigned = false,
  authority,
}: CertificateRequest): Promise<CertificatePems> {
  const now = Date.now();
  const daysAgo = expiredDaysAgo ?? (expired ? 1 : null);
  const validity =
    daysAgo !== null
      ? { notBeforeDate: new Date(now - 30 * DAY_MS), notAfterDate: new Date(now - daysAgo * DAY_MS) }
      : { notBeforeDate: new Date(now - DAY_MS), notAfterDate: new Date(now + 30 * DAY_MS) };
  const leafOptions = {
    keyType: "ec" as const,
    algorithm: "sha256",
    ...validity,
    extensions: [
      { name: "basicConstraints" as const, cA: false },
      { name: "keyUsage" as const, digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage" as const, serverAuth: true },
      { name: "subjectAltName" as const, altNames: [{ type: 2 as const, value: hostname }] },
    ],
  };
  const subject = [{ name: "commonName", value: hostname }];
  if (selfSigned) {
    const leaf = await generate(subject, leafOptions);
    return { key: leaf.private, cert: leaf.cert };
  }
  const ca = authority ?? (await makeCertificateAuthority(`downcheck test CA for ${hostname}`));
  const leaf = await generate(subject, { ...leafOptions, ca: { key: ca.key, cert: ca.cert } });
  return { key: leaf.private, cert: leaf.cert, ca: ca.cert };
}

/** A CA valid for two months either side of now, to sign test leaves with. */
export async function makeCertificateAuthority(name = "downcheck test CA"): Promise<CertificateAuthority> {
  const now = Date.now();
  const ca = await generate([{ name: "commonName", value: name }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 60 * DAY_MS),
    notAfterDate: new Date(now + 60 * DAY_MS),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { key: ca.private, cert: ca.cert };
}
