/**
 * Demo data for a first run: one operator and one workspace with a public site. Goes through the same
 * module functions as the console, so the demo obeys every rule real data does — which is why it lives
 * among the modules (it calls them) rather than in db/, below them. Seeded by bootstrap (SEED_DEMO) and by
 * `npm run db:seed` (the CLI).
 */
import type { Db } from "~db/client";
import type { Env } from "~/lib/env.server";
import { createUser, findCredentials } from "~/modules/accounts/users.server";
import { verifyPassword } from "~/modules/auth/password.server";
import { seedDemoShop } from "~/modules/commerce/demo.server";
import { seedDemoScheduling } from "~/modules/scheduling/demo.server";
import { assistantSettingsOf } from "~/modules/chat/settings.server";
import { seedDemoCustomers } from "~/modules/customers/demo.server";
import { seedDemoMedia } from "~/modules/files/demo.server";
import { seedDemoBrand } from "~/modules/sites/demo-brand.server";
import { seedDemoPages } from "~/modules/sites/demo-pages.server";
import { seedDemoPolicies } from "~/modules/sites/policies.server";
import { createWorkspace, findWorkspaceBySlug } from "~/modules/tenancy/workspaces.server";

export const DEMO_OPERATOR = { email: "demo@atrium.test", password: "atrium-demo-password" } as const;
export const DEMO_WORKSPACE = { name: "Harbor Bakery", slug: "harbor-bakery" } as const;

export async function isEmpty(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

/** Seeds the demo only into an empty database; returns whether it did. */
export async function seedDemo(db: Db, env?: Env): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const user = await createUser(db, { ...DEMO_OPERATOR, tier: "pro" });
  const workspace = await createWorkspace(db, user.id, DEMO_WORKSPACE);
  // Harbor Bakery's site: its images (stored where the environment says), brand and business profile, pages
  // with navigation, and policies — each through the module the console uses.
  const media = await seedDemoMedia({ db, env }, workspace.id);
  await seedDemoBrand(db, workspace.id, media);
  await seedDemoPages(db, workspace.id, media);
  await seedDemoPolicies(db, workspace.id);
  // Its customers, and their requests in the inbox (the e-mails about them go to the demo operator's outbox,
  // with links to this server).
  const origin = env?.PUBLIC_URL ?? `http://localhost:${env?.PORT ?? 3000}`;
  await seedDemoCustomers(db, workspace.id, user.id, origin.replace(/\/$/, ""));
  // Its shop: products, delivery, taxes, payments and one order waiting to be paid.
  await seedDemoShop(db, workspace.id, user.id, media, origin.replace(/\/$/, ""));
  // Its bookings: a consultation and a Saturday class, with two consultations on the calendar.
  await seedDemoScheduling(db, workspace.id, user.id, origin.replace(/\/$/, ""));
  // Its site assistant, switched on: the demo's visitors can ask it about the bakery (ADR 037).
  await assistantSettingsOf(db, workspace.id).save(user.id, {
    enabled: true,
    greeting: "Hello! Ask me about our opening hours, our bakes and prices, or the sourdough class.",
  });
  return true;
}

/** What the start-up banner may say about the demo: nothing once the account is gone. */
export interface DemoState {
  email: string;
  /** Whether the account still opens with the published demo password (the banner then repeats it). */
  demoPassword: boolean;
  /** The demo workspace's site slug, while it still exists and belongs to the demo operator. */
  siteSlug?: string;
}

export async function demoState(db: Db): Promise<DemoState | undefined> {
  const account = await findCredentials(db, DEMO_OPERATOR.email);
  if (!account) return undefined;
  const workspace = await findWorkspaceBySlug(db, DEMO_WORKSPACE.slug);
  return {
    email: account.email,
    // One scrypt check per start: an operator who changed the password must not see the old one advertised.
    demoPassword: await verifyPassword(DEMO_OPERATOR.password, account.password_hash),
    siteSlug: workspace?.owner_user_id === account.id ? workspace.slug : undefined,
  };
}
