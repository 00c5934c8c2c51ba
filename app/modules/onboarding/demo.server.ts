/**
 * Demo data for a first run: one operator and one workspace with a public site. Goes through the same
 * module functions as the console, so the demo obeys every rule real data does — which is why it lives
 * among the modules (it calls them) rather than in db/, below them. Seeded by bootstrap (SEED_DEMO) and by
 * `npm run db:seed` (the CLI).
 */
import type { Db } from "~db/client";
import { createUser, findUserByEmail } from "~/modules/accounts/users.server";
import { createWorkspace } from "~/modules/tenancy/workspaces.server";

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
export async function seedDemo(db: Db): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const user = await createUser(db, { ...DEMO_OPERATOR, tier: "pro" });
  await createWorkspace(db, user.id, DEMO_WORKSPACE);
  return true;
}

export async function demoOperatorExists(db: Db): Promise<boolean> {
  return (await findUserByEmail(db, DEMO_OPERATOR.email)) !== undefined;
}
