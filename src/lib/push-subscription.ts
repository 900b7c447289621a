import { z } from "zod";

// What a browser's PushSubscription.toJSON() gives, checked as a stranger's input: the endpoint a
// URL of sane length, the keys the sizes RFC 8291 encrypts to, so a bad subscription is refused
// now rather than failing every send.

/** Push services' endpoints are a few hundred characters; this is well above any of them. */
export const MAX_ENDPOINT_LENGTH = 2000;

/** base64url of `bytes` bytes, with or without its "=" padding (browsers send none). */
const base64url = (bytes: number, what: string) => {
  const chars = Math.ceil((bytes * 4) / 3);
  const padding = (4 - (chars % 4)) % 4;
  return z
    .string({ error: `${what} is missing` })
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}={0,${padding}}$`), `${what} is not a ${bytes}-byte base64url value`)
    .transform((value) => value.replace(/=+$/, ""));
};

const isWebUrl = (value: string) => {
  const url = URL.parse(value);
  return url !== null && (url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === "";
};

export const PushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: "The subscription has no endpoint." })
    .max(MAX_ENDPOINT_LENGTH, `The subscription's endpoint is over ${MAX_ENDPOINT_LENGTH} characters.`)
    .refine(isWebUrl, "The subscription's endpoint is not a web address."),
  keys: z.object(
    {
      // An uncompressed P-256 point: 65 bytes, the first 0x04.
      p256dh: base64url(65, "The p256dh key").refine(
        (key) => Buffer.from(key, "base64url")[0] === 4,
        "The p256dh key is not a P-256 public key.",
      ),
      auth: base64url(16, "The auth secret"),
    },
    { error: "The subscription has no keys." },
  ),
});

export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>;
