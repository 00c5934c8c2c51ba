import { describe, expect, it } from "vitest";
import { contactFormAnswer, contactFormState } from "./contact-form-state";

describe("the contact form's outcome in the query", () => {
  it("round-trips each answer, keeping only the fields the form has", () => {
    const back = (path: string) => contactFormState(new URL(path, "http://x").searchParams);
    expect(contactFormAnswer("/harbor", { sent: true })).toBe("/harbor/contact?sent=1#contact-form");
    expect(back(contactFormAnswer("/harbor", { sent: true }))).toEqual({ sent: true, error: undefined, fields: [] });
    const invalid = contactFormAnswer("/harbor", { error: "invalid", fields: ["email", "site", "message"] });
    expect(invalid).toBe("/harbor/contact?error=invalid&field=email&field=message#contact-form");
    expect(back(invalid)).toEqual({ sent: false, error: "invalid", fields: ["email", "message"] });
    expect(back(contactFormAnswer("/harbor", { error: "rate-limited" }))).toEqual({
      sent: false,
      error: "rate-limited",
      fields: [],
    });
  });

  it("ignores anything else a link puts in the query", () => {
    expect(contactFormState(new URLSearchParams("error=<script>&field=name&sent=yes"))).toEqual({
      sent: false,
      error: undefined,
      fields: [],
    });
  });
});
