/**
 * Workspaces and their members. Everything that reads or changes one workspace goes through
 * `workspaceOf(db, workspaceId)`, which cannot be built without its tenant (DESIGN rule 2).
 */
import { isUniqueViolation, type Db } from "~db/client";
import type { WorkspaceRow } from "~db/schema";
import { addDays, isoNow, now } from "~/lib/clock.server";
import { conflict, forbidden, invalid, notFound, validate } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { TIER_PLANS } from "~/modules/plans/tiers";
import type { InviteThrottle } from "~/modules/rate-limit/invite-throttle.server";
import { ASSIGNABLE_ROLES, type Role } from "./roles";
import { SlugSchema, WorkspaceNameSchema } from "./slug";

/** A workspace's own columns, as every joined read selects them. */
const WORKSPACE_COLUMNS = [
  "workspaces.id",
  "workspaces.slug",
  "workspaces.name",
  "workspaces.owner_user_id",
  "workspaces.created_at",
] as const;

export type Workspace = Pick<WorkspaceRow, "id" | "slug" | "name" | "owner_user_id" | "created_at">;

const slugTaken = () =>
  conflict("This site address is taken", [{ field: "slug", message: "This site address is already taken" }]);

/**
 * How long a former site address keeps answering 301 to the new one (and stays reserved for its workspace):
 * long enough for search engines and printed links to follow, short enough that a freed name comes back.
 */
export const PREVIOUS_SLUG_DAYS = 90;

/**
 * Refuses `slug` while it is another workspace's former address (within its 90 days), and forgets it once
 * expired. Inside the writer's transaction, after its write, so a refusal undoes the write.
 */
async function claimSlug(trx: Db, workspaceId: string, slug: string): Promise<void> {
  const held = await trx
    .selectFrom("workspace_previous_slugs")
    .select(["workspace_id", "expires_at"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!held) return;
  if (held.workspace_id !== workspaceId && held.expires_at > isoNow()) throw slugTaken();
  // Expired, or this workspace taking its own former address back: it is a current address again.
  await trx.deleteFrom("workspace_previous_slugs").where("slug", "=", slug).execute();
}

/**
 * The workspace's current address for `slug` while `slug` is one of its former addresses (within its 90
 * days); undefined otherwise. Several moves in a row all lead to the current address.
 */
export async function movedSiteSlug(db: Db, slug: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("workspace_previous_slugs as p")
    .innerJoin("workspaces as w", "w.id", "p.workspace_id")
    .select("w.slug")
    .where("p.slug", "=", slug)
    .where("p.expires_at", ">", isoNow())
    .executeTakeFirst();
  return row?.slug;
}

/** The workspaces an operator belongs to, with their role, for the picker. */
export function workspacesOfUser(db: Db, userId: string) {
  return db
    .selectFrom("workspace_members as m")
    .innerJoin("workspaces as w", "w.id", "m.workspace_id")
    .select(["w.id", "w.slug", "w.name", "w.created_at", "m.role"])
    .where("m.user_id", "=", userId)
    .orderBy("w.name")
    .execute();
}

/**
 * A public site is found by its slug: the workspace is the tenant root, not a row inside one. With whether its
 * owner is active: a suspended owner's site is unavailable (ADR 003).
 */
export async function findWorkspaceBySlug(
  db: Db,
  slug: string,
): Promise<(Workspace & { ownerActive: boolean }) | undefined> {
  const row = await db
    .selectFrom("workspaces")
    .innerJoin("users", "users.id", "workspaces.owner_user_id")
    .select([...WORKSPACE_COLUMNS, "users.status as owner_status"])
    .where("workspaces.slug", "=", slug)
    .executeTakeFirst();
  if (!row) return undefined;
  const { owner_status, ...workspace } = row;
  return { ...workspace, ownerActive: owner_status === "active" };
}

/**
 * Creates a workspace owned by `ownerUserId`, within their plan's cap on owned workspaces. The cap is counted
 * inside the transaction after a write to the owner's row: that write locks the row on Postgres (and takes
 * SQLite's write lock), so two requests at once cannot both pass the count.
 */
export async function createWorkspace(
  db: Db,
  ownerUserId: string,
  input: { name: string; slug: string },
): Promise<Workspace> {
  const name = validate(WorkspaceNameSchema, input.name, "name");
  const slug = validate(SlugSchema, input.slug, "slug");
  const now = isoNow();
  const workspace = { id: newId(), owner_user_id: ownerUserId, slug, name, created_at: now, updated_at: now };
  try {
    await db.transaction().execute(async (trx) => {
      const owner = await trx
        .updateTable("users")
        .set((eb) => ({ updated_at: eb.ref("updated_at") }))
        .where("id", "=", ownerUserId)
        .returning("tier")
        .executeTakeFirstOrThrow();
      const plan = TIER_PLANS[owner.tier];
      if (plan.maxOwnedWorkspaces !== null) {
        const owned = await trx
          .selectFrom("workspaces")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("owner_user_id", "=", ownerUserId)
          .executeTakeFirstOrThrow();
        if (Number(owned.n) >= plan.maxOwnedWorkspaces) {
          throw forbidden(
            `The ${plan.label} plan allows ${plan.maxOwnedWorkspaces} workspaces of your own; move to a plan with more to add another`,
          );
        }
      }
      await trx.insertInto("workspaces").values(workspace).execute();
      await claimSlug(trx, workspace.id, slug);
      await trx
        .insertInto("workspace_members")
        .values({ workspace_id: workspace.id, user_id: ownerUserId, role: "owner", created_at: now })
        .execute();
      await recordWorkspaceEvent(trx, workspace.id, { action: "workspace.created", actorUserId: ownerUserId });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken();
    throw error;
  }
  return workspace;
}

/**
 * An operator's request for a new workspace (the picker's form): counted against their hourly allowance of
 * new workspaces once the fields are valid, so that workspaces cannot multiply the allowances kept per
 * workspace (invitations: app/modules/rate-limit/invite-throttle.server.ts).
 */
export async function openWorkspace(
  services: { db: Db; inviteThrottle: InviteThrottle },
  ownerUserId: string,
  input: { name: string; slug: string },
): Promise<Workspace> {
  validate(WorkspaceNameSchema, input.name, "name");
  validate(SlugSchema, input.slug, "slug");
  await services.inviteThrottle.takeWorkspace(ownerUserId);
  return createWorkspace(services.db, ownerUserId, input);
}

export interface Member {
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
}

/** Every read and write of one workspace's rows. `actorUserId` is who acts, for the audit trail. */
export function workspaceOf(db: Db, workspaceId: string) {
  const members = () => db.selectFrom("workspace_members").where("workspace_members.workspace_id", "=", workspaceId);

  async function memberOrThrow(userId: string) {
    const row = await members().select(["user_id", "role"]).where("user_id", "=", userId).executeTakeFirst();
    if (!row) throw notFound("That person is not a member of this workspace");
    return row;
  }

  return {
    id: workspaceId,

    /** The workspace and `userId`'s role in it, in one query; undefined when they are not a member. */
    async withRoleOf(userId: string): Promise<{ workspace: Workspace; role: Role } | undefined> {
      const row = await members()
        .innerJoin("workspaces", "workspaces.id", "workspace_members.workspace_id")
        .select([...WORKSPACE_COLUMNS, "workspace_members.role"])
        .where("workspace_members.user_id", "=", userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { role, ...workspace } = row;
      return { workspace, role };
    },

    roleOf: async (userId: string): Promise<Role | undefined> =>
      (await members().select("role").where("user_id", "=", userId).executeTakeFirst())?.role,

    async update(actorUserId: string, input: { name: string; slug: string }) {
      const name = validate(WorkspaceNameSchema, input.name, "name");
      const slug = validate(SlugSchema, input.slug, "slug");
      try {
        // Its name is on every page and its slug is the site's address: the whole workspace (ADR 026).
        await writeAndPurge(db, async (trx, purge) => {
          purge(cacheTags.workspace(workspaceId));
          const before = await trx
            .selectFrom("workspaces")
            .select("slug")
            .where("id", "=", workspaceId)
            .executeTakeFirstOrThrow();
          await trx
            .updateTable("workspaces")
            .set({ name, slug, updated_at: isoNow() })
            .where("id", "=", workspaceId)
            .execute();
          if (before.slug !== slug) {
            await claimSlug(trx, workspaceId, slug);
            // The old address answers 301 to the new one, and no one else may take it, for 90 days.
            const at = now();
            await trx.deleteFrom("workspace_previous_slugs").where("slug", "=", before.slug).execute();
            await trx
              .insertInto("workspace_previous_slugs")
              .values({
                slug: before.slug,
                workspace_id: workspaceId,
                moved_at: at.toISOString(),
                expires_at: addDays(at, PREVIOUS_SLUG_DAYS).toISOString(),
              })
              .execute();
          }
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "workspace.updated",
            actorUserId,
            detail: before.slug === slug ? { name, slug } : { name, slug, previousSlug: before.slug },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw slugTaken();
        throw error;
      }
    },

    listMembers: async (): Promise<Member[]> =>
      await members()
        .innerJoin("users", "users.id", "workspace_members.user_id")
        .select([
          "users.id as userId",
          "users.email",
          "workspace_members.role",
          "workspace_members.created_at as createdAt",
        ])
        .orderBy("workspace_members.created_at")
        .execute(),

    async changeRole(actorUserId: string, userId: string, role: Role) {
      if (!ASSIGNABLE_ROLES.includes(role)) throw invalid("Choose admin, editor or viewer");
      const member = await memberOrThrow(userId);
      if (member.role === "owner") throw forbidden("The owner's role cannot be changed");
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("workspace_members")
          .set({ role })
          .where("workspace_id", "=", workspaceId)
          .where("user_id", "=", userId)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "member.role_changed",
          actorUserId,
          targetUserId: userId,
          detail: { role },
        });
      });
    },

    async removeMember(actorUserId: string, userId: string) {
      const member = await memberOrThrow(userId);
      if (member.role === "owner") throw forbidden("The owner cannot be removed");
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom("workspace_members")
          .where("workspace_id", "=", workspaceId)
          .where("user_id", "=", userId)
          .execute();
        // A removed member's sessions must not keep this workspace selected.
        await trx
          .updateTable("sessions")
          .set({ selected_workspace_id: null })
          .where("user_id", "=", userId)
          .where("selected_workspace_id", "=", workspaceId)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, { action: "member.removed", actorUserId, targetUserId: userId });
      });
    },
  };
}

export type WorkspaceRepo = ReturnType<typeof workspaceOf>;
