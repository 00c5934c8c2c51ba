/**
 * The four policies a site can publish, in the order the console and the footer list them. Plain data (no
 * server imports): the console's forms and the public pages both read it.
 */
import type { LinkBase } from "~/lib/link-base";
import type { PolicyKind } from "~db/schema/sites-policies";

export type { PolicyKind };

/** The longest policy accepted, in characters (a long privacy policy is some 30,000). */
export const POLICY_MAX_LENGTH = 50_000;

export const POLICY_KINDS: readonly PolicyKind[] = ["privacy", "terms", "refund", "shipping"];

export const POLICY_LABELS: Record<PolicyKind, { title: string; about: string }> = {
  privacy: { title: "Privacy policy", about: "What you collect about visitors and customers, why, and for how long." },
  terms: { title: "Terms of service", about: "The terms on which you sell and your site may be used." },
  refund: { title: "Refund policy", about: "Returns, refunds and exchanges, and how to ask for one." },
  shipping: { title: "Shipping policy", about: "Where you deliver, how long it takes and what it costs." },
};

export const isPolicyKind = (value: string | undefined): value is PolicyKind =>
  (POLICY_KINDS as readonly string[]).includes(value ?? "");

/** A policy's address under a site's link base (`/{slug}`, or "" on its own domain). */
export const policyPath = (base: LinkBase, kind: PolicyKind) => `${base}/policies/${kind}`;
