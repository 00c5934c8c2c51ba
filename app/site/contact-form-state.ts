/**
 * The contact form's outcome travels in the contact page's query (`?sent=1`, `?error=invalid&field=email`,
 * `?error=rate-limited`) after `POST /api/v1/contact` answers a form post 303: the page is then the same for
 * every visitor who asks for that address — cacheable, no CSRF token, nothing anyone typed. Plain data, read by
 * the API route (which writes the answer) and the form (which shows it).
 */
import type { LinkBase } from "~/lib/link-base";

/** The hidden field a person never fills (ContactForm hides it with a class, not an inline style: CSP). */
export const CONTACT_HONEYPOT = "website";

export type ContactFormError = "invalid" | "rate-limited";
export type ContactField = "name" | "email" | "message";

export interface ContactFormState {
  sent: boolean;
  error?: ContactFormError;
  /** The fields refused, when `error` is "invalid". */
  fields: ContactField[];
}

/** What is shown next to a refused field: fixed text, as the page cannot carry the server's own words. */
export const CONTACT_FIELD_ERRORS: Record<ContactField, string> = {
  name: "Enter your name (at most 120 characters)",
  email: "Enter a valid e-mail address, like name@example.com",
  message: "Write your message (at most 5,000 characters)",
};

const FIELDS = Object.keys(CONTACT_FIELD_ERRORS) as ContactField[];

/** The query parameters the contact page shows (its cache varies on them, ADR 026); any other bypasses the cache. */
export const CONTACT_QUERY = ["sent", "error", "field"] as const;

/** The contact page under a site's link base (`/{slug}`, or "" on its own domain). */
export const contactPagePath = (base: LinkBase) => `${base}/contact`;

/** The address a form post is answered with (303): the site's contact page, with the outcome in its query. */
export function contactFormAnswer(
  base: LinkBase,
  answer: { sent: true } | { error: ContactFormError; fields?: string[] },
): string {
  const query = new URLSearchParams();
  if ("sent" in answer) query.set("sent", "1");
  else {
    query.set("error", answer.error);
    for (const field of answer.fields ?? []) if ((FIELDS as string[]).includes(field)) query.append("field", field);
  }
  return `${contactPagePath(base)}?${query.toString()}#contact-form`;
}

/** The outcome the contact page shows for its query; anything unknown in it is ignored. */
export function contactFormState(search: URLSearchParams): ContactFormState {
  const error = search.get("error");
  return {
    sent: search.get("sent") === "1",
    error: error === "invalid" || error === "rate-limited" ? error : undefined,
    fields: error === "invalid" ? FIELDS.filter((f) => search.getAll("field").includes(f)) : [],
  };
}
