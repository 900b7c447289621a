"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import {
  hasPushSubscription,
  MAX_SITES_PER_ENDPOINT,
  removePushSubscription,
  removeSubscriptionByToken,
} from "@/server/data/push-subscriptions";
import { registrableDomainOf } from "@/lib/domain";
import { subscribeBrowser, type SubscribeOutcome } from "@/server/watching";
import { MAX_ENDPOINT_LENGTH, PushSubscriptionSchema } from "@/lib/push-subscription";
import type { ActionState } from "@/lib/refusal";
import { app } from "@/server/app";
import type { Limiter } from "@/server/base/limits";
import { parseRequestedDomain } from "@/server/checking";
import { currentVisitor } from "@/server/crowd";
import { formFields, NOT_A_FORM } from "./form-fields";

// "Tell me when it's back": the button calls these with plain values (the browser's subscription
// JSON is not a form); the unsubscribe page posts a form. Reading or stopping a subscription takes
// its endpoint and auth secret, which only that browser holds. Nothing cached changes.

export interface PushState extends ActionState {
  /** Whether this browser now follows the domain. */
  subscribed?: boolean;
  /** Sites this browser still follows after an unsubscribe: at 0 it may drop its push subscription. */
  remaining?: number;
}

const Domain = z.string({ error: "The page lost its website; reload the page." }).min(1).max(2048);
const Owner = z.object(
  {
    endpoint: z.string({ error: "The subscription has no endpoint." }).min(1).max(MAX_ENDPOINT_LENGTH),
    auth: z
      .string({ error: "The subscription has no auth secret." })
      .regex(/^[A-Za-z0-9_-]{22}={0,2}$/, "The subscription's auth secret is not one a browser makes.")
      .transform((value) => value.replace(/=+$/, "")),
  },
  { error: "The page did not say which subscription; reload the page." },
);
const SubscribeInput = z.object({ domain: Domain, subscription: PushSubscriptionSchema });
const OwnerInput = z.object({ domain: Domain, owner: Owner });
const TokenInput = z.object(
  { token: z.string({ error: "This link has no token." }).regex(/^[A-Za-z0-9_-]{16,64}$/, "This link's token is not one we issue.") },
  { error: NOT_A_FORM },
);

const failed = (message: string): PushState => ({ status: "error", message });

type Admitted<T> = { ok: true; bucket: string; data: T } | { ok: false; state: PushState };

/** The visitor admitted by `limiter`, then `input` read by `schema`; or the state saying why not. */
async function admitted<T>(limiter: Limiter, schema: z.ZodType<T>, input: unknown): Promise<Admitted<T>> {
  const visitor = await currentVisitor();
  const allowed = await limiter.take(visitor.bucket);
  if (!allowed.ok) return { ok: false, state: failed(`Too many requests at once; try again in ${allowed.retryAfterSeconds} seconds.`) };
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, state: failed(parsed.error.issues[0]?.message ?? "That request was not valid.") };
  return { ok: true, bucket: visitor.bucket, data: parsed.data };
}

/** The same, then its domain parsed. */
async function admittedInput<T extends { domain: string }>(limiter: Limiter, schema: z.ZodType<T>, input: unknown) {
  const read = await admitted(limiter, schema, input);
  if (!read.ok) return read;
  const target = parseRequestedDomain(read.data.domain);
  return target.ok ? { ...read, target } : { ok: false as const, state: failed(target.message) };
}

function refusal(outcome: Extract<SubscribeOutcome, { ok: false }>, site: string, registrable: string): string {
  switch (outcome.code) {
    case "not_push_service":
      return "This browser's push service is not one we send notifications through.";
    case "not_confirmed":
      return "Your browser's push service did not accept our first notification, so none could be turned on; please try again.";
    case "not_owner":
      return "This browser's subscription could not be confirmed; reload the page and try again.";
    case "endpoint_limit":
      return `This browser already gets notifications for ${MAX_SITES_PER_ENDPOINT} sites; stop one of them first.`;
    case "address_limit":
      return `Your network already gets notifications for ${outcome.limit} sites; stop some of them first.`;
    case "subdomain_limit":
      return `Notifications are on for ${outcome.limit} names under ${registrable} already, the most we follow; ${site} cannot be added.`;
  }
}

/** Follows `domain` with this browser's push subscription (PushSubscription.toJSON()). */
export async function subscribeAction(domain: unknown, subscription: unknown): Promise<PushState> {
  const input = await admittedInput(app().limits.pushChanges, SubscribeInput, { domain, subscription });
  if (!input.ok) return input.state;
  const { target } = input;
  try {
    const outcome = await subscribeBrowser({
      domain: target.ascii,
      displayName: target.unicode,
      subscription: input.data.subscription,
      bucket: input.bucket,
    });
    if (!outcome.ok) return failed(refusal(outcome, target.unicode, registrableDomainOf(target.ascii)));
  } catch (error) {
    console.error("subscribeAction: could not store a subscription", error);
    return failed("Notifications could not be turned on; please try again.");
  }
  return { status: "success", subscribed: true, message: `We will tell you when ${target.unicode} goes down or comes back.` };
}

/** Stops `domain`'s notifications for this browser (its endpoint and auth secret). */
export async function unsubscribeAction(domain: unknown, owner: unknown): Promise<PushState> {
  const input = await admittedInput(app().limits.pushChanges, OwnerInput, { domain, owner });
  if (!input.ok) return input.state;
  const { target, data } = input;
  try {
    const { remaining } = await removePushSubscription(target.ascii, data.owner.endpoint, data.owner.auth);
    return { status: "success", subscribed: false, remaining, message: `No more notifications about ${target.unicode}.` };
  } catch (error) {
    console.error("unsubscribeAction: could not remove a subscription", error);
    return failed("Notifications could not be stopped; please try again.");
  }
}

/** Whether this browser follows `domain` (the page is cached for everyone; this is not). */
export async function pushStatusAction(domain: unknown, owner: unknown): Promise<PushState> {
  const input = await admittedInput(app().limits.pushStatus, OwnerInput, { domain, owner });
  if (!input.ok) return input.state;
  const { target, data } = input;
  try {
    return {
      status: "idle",
      message: "",
      subscribed: await hasPushSubscription(target.ascii, data.owner.endpoint, data.owner.auth),
    };
  } catch (error) {
    console.error("pushStatusAction: could not read a subscription", error);
    return failed("Whether you get notifications could not be read.");
  }
}

/**
 * The unsubscribe page's one button: a form with the notification link's `token`. Done, it
 * goes to the page's confirmation (a redirect, so a browser without JavaScript gets it too and
 * a reload posts nothing again); the token is gone by then, so the page could not show it.
 */
export async function unsubscribeTokenAction(_prev: PushState, formData: FormData): Promise<PushState> {
  const input = await admitted(app().limits.pushChanges, TokenInput, formFields(formData, ["token"]));
  if (!input.ok) return input.state;
  let site: { domain: string } | null;
  try {
    site = await removeSubscriptionByToken(input.data.token);
  } catch (error) {
    console.error("unsubscribeTokenAction: could not remove a subscription", error);
    return failed("Notifications could not be stopped; please try again.");
  }
  // Outside the try: redirect() throws Next's own signal.
  redirect(`/unsubscribe?done=${encodeURIComponent(site?.domain ?? "")}`);
}
