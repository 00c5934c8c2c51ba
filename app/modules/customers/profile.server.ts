/**
 * What a signed-in customer changes of their own account, from the portal's profile page or `PATCH
 * /api/v1/profile`: the same functions, the same validation (ADR 029).
 */
import { z } from "zod";
import type { Db } from "~db/client";
import { invalid, issuesOf, unauthenticated } from "~/lib/errors";
import { PasswordSchema, assertPasswordAllowed } from "~/modules/accounts/users.server";
import { hashPassword } from "~/modules/auth/password.server";
import { challengesOf } from "./challenges.server";
import { claimGuestRecords } from "./claims.server";
import { CustomerName, CustomerPhone, customersOf, type ChangeSource, type Customer } from "./customers.server";

export const ProfileInput = z
  .object({
    name: CustomerName,
    phone: CustomerPhone.nullable(),
    notifications: z
      .object({ ticketReplies: z.boolean(), orderUpdates: z.boolean(), bookingReminders: z.boolean() })
      .partial()
      .strict(),
    marketingConsent: z.boolean(),
  })
  .partial()
  .strict();
export type ProfileInput = z.output<typeof ProfileInput>;

/** The profile as the customer sees it (portal and API): nothing the business keeps to itself (tags, notes). */
export function ownProfile(customer: Customer) {
  return {
    id: customer.id,
    email: customer.email,
    emailVerified: customer.emailVerified,
    name: customer.name,
    phone: customer.phone,
    hasPassword: customer.hasPassword,
    marketingConsent: customer.marketingConsent,
    marketingConsentAt: customer.marketingConsentAt,
    notifications: customer.notifications,
    createdAt: customer.createdAt,
  };
}
export type OwnProfile = ReturnType<typeof ownProfile>;

export async function updateOwnProfile(
  db: Db,
  customer: Customer,
  input: unknown,
  source: ChangeSource,
): Promise<Customer> {
  const parsed = ProfileInput.safeParse(input);
  if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
  return customersOf(db, customer.workspaceId).updateProfile(customer.id, parsed.data, source);
}

/** The code sent to a new address, entered by the customer who asked: their account moves to it. */
export async function confirmEmailChange(
  db: Db,
  customer: Customer,
  challengeId: string,
  code: string,
): Promise<Customer> {
  const proven = await challengesOf(db, customer.workspaceId).verifyCode(challengeId, code);
  if (proven.purpose !== "email-change" || proven.customerId !== customer.id) {
    throw unauthenticated("This code is not for changing your e-mail address. Ask for a new one.");
  }
  const moved = await customersOf(db, customer.workspaceId).changeEmail(customer.id, proven.email);
  await claimGuestRecords(db, customer.workspaceId, moved);
  return moved;
}

/** Sets (or, with an empty `password`, removes) the customer's password; sign-in by e-mail always works. */
export async function setOwnPassword(
  db: Db,
  customer: Customer,
  values: { password: string; confirm: string },
  siteName: string,
): Promise<void> {
  const customers = customersOf(db, customer.workspaceId);
  if (values.password === "" && values.confirm === "") {
    await customers.setPassword(customer.id, null);
    return;
  }
  const parsed = PasswordSchema.safeParse(values.password);
  if (!parsed.success)
    throw invalid("Check the password", [{ field: "password", message: parsed.error.issues[0]!.message }]);
  if (values.password !== values.confirm) {
    throw invalid("The passwords do not match", [{ field: "confirm", message: "Type the same password twice" }]);
  }
  await assertPasswordAllowed(values.password, { email: customer.email, workspaceName: siteName });
  await customers.setPassword(customer.id, await hashPassword(values.password));
}
