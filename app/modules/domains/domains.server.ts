/**
 * Custom domains of a workspace (issue 14, ADR 024): claim a host name, prove it with a TXT record, point it
 * here, keep checking. A claim is `pending` until both checks pass; then `verified` (it serves the site);
 * a verified domain whose checks fail becomes `failing` and keeps serving for 72 hours, so a DNS blip or a
 * provider's slow change does not take a site down, then drops back to `pending` and stops serving.
 * Only one workspace can hold a name verified or failing: the partial unique index `site_domains_verified_host`
 * decides between two at once, and the loser is told so (`claimed-elsewhere`).
 */
import { randomBytes } from "node:crypto";
import { sql, type UpdateObject } from "kysely";
import type { Db } from "~db/client";
import { isUniqueViolation } from "~db/client";
import type { Database, SiteDomainsTable } from "~db/schema";
import { now } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import { conflict, forbidden, notFound } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { enqueueJob } from "~/modules/jobs/jobs.server";
import { TIER_PLANS } from "~/modules/plans/tiers";
import { configuredHosts, hostnameOf } from "~/modules/hosts/hosts.server";
import {
  checkDns,
  recordsFor,
  type DnsCheckResult,
  type DnsOptions,
  type DnsRecord,
  type DomainDiagnostic,
  type PointingTarget,
} from "./dns-check.server";
import { normalizeHostname } from "./hostname.server";
import type { SiteDomainRegistry } from "./registry.server";

export const DOMAIN_CHECK_JOB = "domains.check";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When checks run (ADR 024). */
export const SCHEDULE = {
  /** A new claim: often while its owner is likely setting DNS up… */
  pendingFast: 5 * MINUTE,
  pendingFastFor: 3 * DAY,
  /** …then hourly, and not at all after 30 days ("Check now" starts again). */
  pendingSlow: HOUR,
  pendingGiveUpAfter: 30 * DAY,
  verified: 6 * HOUR,
  failing: HOUR,
  /** How long a failing domain keeps serving before it is pending again. */
  failingGrace: 72 * HOUR,
  /** The resolver did not answer: try again soon, change nothing. */
  unreachable: 5 * MINUTE,
  /** A due check is queued; its job sets the real next time. Past this, maintenance queues it again. */
  queuedFor: 15 * MINUTE,
} as const;

export type DomainStatus = "pending" | "verified" | "failing";

export interface DomainView {
  hostname: string;
  status: DomainStatus;
  /** Serves the site (verified, or failing within its grace period). */
  serving: boolean;
  primary: boolean;
  redirectPath: boolean;
  diagnostics: DomainDiagnostic[];
  records: DnsRecord[];
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  verifiedAt: string | null;
  failingSince: string | null;
  createdAt: string;
}

export interface CheckOutcome {
  domain: DomainView;
  /** Both checks passed but another workspace holds the name: the API answers 409. */
  claimedElsewhere: boolean;
}

/** What the module reads from the environment, resolved once. */
export interface DomainsConfig {
  dns: DnsOptions;
  target: PointingTarget;
  /** The deployment's own host names: never claimable; the ask endpoint always answers for them. */
  ownHosts: string[];
}

export function domainsConfig(env: Env): DomainsConfig {
  const ownHosts = configuredHosts(env).map((h) => h.hostname);
  const publicHost = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : null;
  return {
    dns: { servers: env.DNS_SERVERS, timeoutMs: env.DNS_TIMEOUT_MS },
    target: { cname: env.DOMAIN_CNAME_TARGET ?? publicHost, addresses: env.DOMAIN_TARGET_ADDRESSES },
    ownHosts,
  };
}

type Row = SiteDomainsTable;

const SERVING: readonly string[] = ["verified", "failing"];
const at = (ms: number) => new Date(ms).toISOString();

function viewOf(row: Row, config: DomainsConfig): DomainView {
  return {
    hostname: row.hostname,
    status: row.status as DomainStatus,
    serving: SERVING.includes(row.status),
    primary: row.is_primary === 1,
    redirectPath: row.redirect_path === 1,
    diagnostics: JSON.parse(row.diagnostics) as DomainDiagnostic[],
    records: recordsFor(row.hostname, row.token, config.target),
    lastCheckedAt: row.last_checked_at,
    nextCheckAt: row.next_check_at,
    verifiedAt: row.verified_at,
    failingSince: row.failing_since,
    createdAt: row.created_at,
  };
}

/** The next check of a claim still pending at `nowMs`. */
function nextPendingCheck(row: Row, nowMs: number): string | null {
  const age = nowMs - Date.parse(row.created_at);
  if (age >= SCHEDULE.pendingGiveUpAfter) return null;
  return at(nowMs + (age < SCHEDULE.pendingFastFor ? SCHEDULE.pendingFast : SCHEDULE.pendingSlow));
}

/** Makes the oldest serving domain primary when the workspace has none (after a removal or a lapse). */
async function ensurePrimary(db: Db, workspaceId: string): Promise<void> {
  const serving = await db
    .selectFrom("site_domains")
    .select(["id", "is_primary"])
    .where("workspace_id", "=", workspaceId)
    .where("status", "in", ["verified", "failing"])
    .orderBy("verified_at")
    .orderBy("id")
    .execute();
  if (serving.length && !serving.some((d) => d.is_primary === 1)) {
    await db.updateTable("site_domains").set({ is_primary: 1 }).where("id", "=", serving[0]!.id).execute();
  }
}

export interface DomainServices {
  db: Db;
  config: DomainsConfig;
  /** `services.siteDomains.invalidate`: after every change of what serves. */
  invalidate: () => void;
  /** Wakes this process's job runner after queueing checks. */
  wake?: () => void;
}

/**
 * Applies one check's result to a claim, as the state machine of ADR 024 says. Returns the row as saved and
 * whether another workspace holds the name.
 */
async function applyCheck(
  services: DomainServices,
  row: Row,
  result: DnsCheckResult,
): Promise<{ row: Row; claimedElsewhere: boolean }> {
  const { db } = services;
  const nowMs = now().getTime();
  const checkedAt = at(nowMs);
  const diagnostics = [...result.diagnostics];
  let claimedElsewhere = false;
  let changed = false;

  /**
   * Saves the check in one transaction. A flip (`event`: the domain starts or stops serving) changes which
   * host shows the site and every canonical address (ADR 026): the whole workspace is purged at that commit,
   * with its audit event, so no crash can leave a flip that other nodes never hear of (maintainer review F6).
   */
  const save = (set: UpdateObject<Database, "site_domains">, event: string | null, more?: (trx: Db) => Promise<void>) =>
    writeAndPurge(db, async (trx, purge) => {
      await trx
        .updateTable("site_domains")
        .where("id", "=", row.id)
        .where("workspace_id", "=", row.workspace_id)
        .set({ ...set, diagnostics: JSON.stringify(diagnostics), last_checked_at: checkedAt, updated_at: checkedAt })
        .execute();
      if (more) await more(trx);
      if (event === null) return;
      purge(cacheTags.workspace(row.workspace_id));
      await recordWorkspaceEvent(trx, row.workspace_id, {
        action: event,
        actorUserId: null,
        detail: { hostname: row.hostname },
      });
    });

  if (result.unreachable) {
    await save({ next_check_at: at(nowMs + SCHEDULE.unreachable) }, null);
  } else if (result.ownership && result.pointing) {
    if (row.status === "pending") {
      try {
        // It becomes primary if the workspace has no serving primary. The unique index refuses it if another
        // workspace holds the name: the statement fails, its whole transaction rolls back (on Postgres a failed
        // statement aborts it), and the refusal is saved below in a transaction of its own.
        await save(
          {
            status: "verified",
            verified_at: checkedAt,
            failing_since: null,
            is_primary: sql<number>`case when exists (select 1 from site_domains o where o.workspace_id = ${row.workspace_id} and o.is_primary = 1 and o.status <> 'pending' and o.id <> ${row.id}) then 0 else 1 end`,
            next_check_at: at(nowMs + SCHEDULE.verified),
          },
          "domain.verified",
        );
        changed = true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        claimedElsewhere = true;
        diagnostics.push({
          code: "claimed-elsewhere",
          ok: false,
          message: `${row.hostname} is already connected to another workspace on this server. If the domain is yours now, remove it there; a domain whose records stop verifying is released after 72 hours.`,
        });
        await save({ next_check_at: nextPendingCheck(row, nowMs) }, null);
      }
    } else {
      changed = row.status !== "verified";
      await save(
        { status: "verified", failing_since: null, next_check_at: at(nowMs + SCHEDULE.verified) },
        changed ? "domain.verified" : null,
      );
    }
  } else if (row.status === "pending") {
    await save({ next_check_at: nextPendingCheck(row, nowMs) }, null);
  } else {
    const since = row.failing_since ?? checkedAt;
    const lapsed = nowMs - Date.parse(since) >= SCHEDULE.failingGrace;
    changed = row.status !== "failing" || lapsed;
    await save(
      lapsed
        ? {
            status: "pending",
            is_primary: 0,
            failing_since: null,
            verified_at: null,
            next_check_at: at(nowMs + SCHEDULE.pendingSlow),
          }
        : { status: "failing", failing_since: since, next_check_at: at(nowMs + SCHEDULE.failing) },
      changed ? (lapsed ? "domain.lapsed" : "domain.failing") : null,
      lapsed ? (trx) => ensurePrimary(trx, row.workspace_id) : undefined,
    );
  }
  // This process's registry reloads at its next read. Called as soon as the commit (and its purge) returns,
  // before any other request is handled (no I/O in between).
  if (changed) services.invalidate();
  const saved = await db
    .selectFrom("site_domains")
    .selectAll()
    .where("id", "=", row.id)
    .where("workspace_id", "=", row.workspace_id)
    .executeTakeFirst();
  return { row: saved ?? row, claimedElsewhere };
}

/** Every read and write of one workspace's custom domains. `actorUserId`: who acts, for the audit trail. */
export function domainsOf(services: DomainServices, workspaceId: string) {
  const { db, config } = services;
  /**
   * The site's address, its hosts and the redirect from this server's own host change: every answer of the
   * workspace, on every host (ADR 026).
   */
  const hostMappingTags = [cacheTags.workspace(workspaceId), cacheTags.domains(workspaceId)];
  const rows = (q: Db = db) => q.selectFrom("site_domains").where("workspace_id", "=", workspaceId);
  const normalize = (input: string) => normalizeHostname(input, config.ownHosts);

  async function rowOf(hostname: string, q: Db = db): Promise<Row> {
    const row = await rows(q).selectAll().where("hostname", "=", normalize(hostname)).executeTakeFirst();
    if (!row) throw notFound(`${hostname} is not one of this workspace's domains`);
    return row;
  }

  return {
    normalize,

    async list(): Promise<DomainView[]> {
      const list = await rows().selectAll().orderBy("created_at").orderBy("id").execute();
      // Primary first, then serving ones, then claims, each oldest first.
      const rank = (r: Row) => (r.is_primary === 1 ? 0 : SERVING.includes(r.status) ? 1 : 2);
      return list.sort((a, b) => rank(a) - rank(b)).map((r) => viewOf(r, config));
    },

    async get(hostname: string): Promise<DomainView> {
      return viewOf(await rowOf(hostname), config);
    },

    /** Claims `input` for the workspace: a pending domain with a new TXT token, checked soon. */
    async add(actorUserId: string, input: string): Promise<DomainView> {
      const hostname = normalize(input);
      const at = now().toISOString();
      const row: Row = {
        id: newId(),
        workspace_id: workspaceId,
        hostname,
        token: `atrium-verify=${randomBytes(16).toString("hex")}`,
        status: "pending",
        is_primary: 0,
        redirect_path: 1,
        diagnostics: "[]",
        last_checked_at: null,
        next_check_at: new Date(now().getTime() + SCHEDULE.pendingFast).toISOString(),
        verified_at: null,
        failing_since: null,
        created_at: at,
        updated_at: at,
      };
      const field = (message: string) => [{ field: "hostname", message }];
      try {
        // A claim serves nothing until verified; the domains list is purged all the same (ADR 026), cheaply.
        await writeAndPurge(db, async (trx, purge) => {
          purge(cacheTags.domains(workspaceId));
          // Taking the workspace row's write lock first serialises two adds of one workspace, so both cannot
          // pass the count (as createWorkspace does with the owner's row).
          const owner = await trx
            .updateTable("workspaces")
            .set((eb) => ({ updated_at: eb.ref("updated_at") }))
            .where("id", "=", workspaceId)
            .returning("owner_user_id")
            .executeTakeFirstOrThrow();
          const { tier } = await trx
            .selectFrom("users")
            .select("tier")
            .where("id", "=", owner.owner_user_id)
            .executeTakeFirstOrThrow();
          // The same name again is answered as such, even on a full plan.
          if (await rows(trx).select("id").where("hostname", "=", hostname).executeTakeFirst()) {
            const message = `${hostname} is already one of this workspace's domains`;
            throw conflict(message, field(message));
          }
          const plan = TIER_PLANS[tier];
          if (plan.maxCustomDomains !== null) {
            const { n } = await rows(trx)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow();
            if (Number(n) >= plan.maxCustomDomains) {
              const message = `The ${plan.label} plan allows ${plan.maxCustomDomains} custom domain${plan.maxCustomDomains === 1 ? "" : "s"} per workspace; remove one or move to a plan with more`;
              throw forbidden(message);
            }
          }
          const held = await trx
            .selectFrom("site_domains")
            .select("workspace_id")
            .where("hostname", "=", hostname)
            .where("status", "<>", "pending")
            .executeTakeFirst();
          if (held && held.workspace_id !== workspaceId) {
            const message = `${hostname} is already connected to another workspace on this server`;
            throw conflict(message, field(message));
          }
          await trx.insertInto("site_domains").values(row).execute();
          await recordWorkspaceEvent(trx, workspaceId, { action: "domain.added", actorUserId, detail: { hostname } });
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const message = `${hostname} is already one of this workspace's domains`;
        throw conflict(message, field(message));
      }
      return viewOf(row, config);
    },

    /** Runs both DNS checks now and applies the result (the console's "Check now", the API's POST). */
    async check(hostname: string): Promise<CheckOutcome> {
      const row = await rowOf(hostname);
      const result = await checkDns(row.hostname, row.token, config.target, config.dns);
      const applied = await applyCheck(services, row, result);
      return { domain: viewOf(applied.row, config), claimedElsewhere: applied.claimedElsewhere };
    },

    /** The site's final address becomes this domain (it must be serving). */
    async makePrimary(actorUserId: string, hostname: string): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        purge(...hostMappingTags);
        const row = await rowOf(hostname, trx);
        if (!SERVING.includes(row.status)) {
          throw conflict(`${row.hostname} is not verified yet: verify it before making it the site's address`);
        }
        await trx
          .updateTable("site_domains")
          .set({ is_primary: 0 })
          .where("workspace_id", "=", workspaceId)
          .where("id", "<>", row.id)
          .execute();
        await trx
          .updateTable("site_domains")
          .set({ is_primary: 1, updated_at: now().toISOString() })
          .where("id", "=", row.id)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "domain.primary",
          actorUserId,
          detail: { hostname: row.hostname },
        });
      });
      services.invalidate();
    },

    /** Whether `/{site}/*` on this server's own host answers 301 to this domain (when it is primary). */
    async setRedirect(actorUserId: string, hostname: string, on: boolean): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        purge(...hostMappingTags);
        const row = await rowOf(hostname, trx);
        await trx
          .updateTable("site_domains")
          .set({ redirect_path: on ? 1 : 0, updated_at: now().toISOString() })
          .where("id", "=", row.id)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "domain.redirect",
          actorUserId,
          detail: { hostname: row.hostname, redirect: on },
        });
      });
      services.invalidate();
    },

    async remove(actorUserId: string, hostname: string): Promise<void> {
      await writeAndPurge(db, async (trx, purge) => {
        purge(...hostMappingTags);
        const row = await rowOf(hostname, trx);
        await trx.deleteFrom("site_domains").where("id", "=", row.id).execute();
        await ensurePrimary(trx, workspaceId);
        await recordWorkspaceEvent(trx, workspaceId, {
          action: "domain.removed",
          actorUserId,
          detail: { hostname: row.hostname },
        });
      });
      services.invalidate();
    },

    /** The periodic check's job (payload: the claim's id, queued for this workspace). */
    async checkById(id: string): Promise<void> {
      const row = await rows().selectAll().where("id", "=", id).executeTakeFirst();
      if (!row) return; // removed since it was queued
      const result = await checkDns(row.hostname, row.token, config.target, config.dns);
      await applyCheck(services, row, result);
    },
  };
}

export type DomainsRepo = ReturnType<typeof domainsOf>;

/**
 * Whether Caddy may get a certificate for `hostname`: one of the deployment's own configured names, or a
 * custom domain the registry serves (verified or failing). The registry is the one list the host check of
 * server.ts reads too (ADR 025), so the proxy is never given a certificate for a name the app would then
 * refuse with 421, nor refused one for a name it serves. Loopback names are not asked about: no certificate
 * authority issues for them.
 */
export async function isServedHostname(
  registry: Pick<SiteDomainRegistry, "siteOfHost">,
  config: Pick<DomainsConfig, "ownHosts">,
  hostname: string,
): Promise<boolean> {
  // A bare name only: `hostnameOf` parses a URL authority, where `a@b`, `b:1` or `b/c` would all read as `b`.
  if (/[^\p{L}\p{N}.-]/u.test(hostname)) return false;
  const name = hostnameOf(hostname);
  if (name === null) return false;
  if (config.ownHosts.includes(name)) return true;
  return (await registry.siteOfHost(name)) !== null;
}

/**
 * Maintenance (once a minute): queues a check job for every claim whose next check is due, and moves its
 * next check past the job's run so the next minute does not queue it twice. Returns how many were queued.
 */
export async function queueDueChecks(services: DomainServices, limit = 500): Promise<number> {
  const { db } = services;
  const nowMs = now().getTime();
  const due = await db
    .selectFrom("site_domains")
    .select(["id", "workspace_id"])
    .where("next_check_at", "<=", at(nowMs))
    .orderBy("next_check_at")
    .limit(limit)
    .execute();
  for (const row of due) {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("site_domains")
        .set({ next_check_at: at(nowMs + SCHEDULE.queuedFor) })
        .where("id", "=", row.id)
        .execute();
      await enqueueJob(trx, {
        kind: DOMAIN_CHECK_JOB,
        payload: { domainId: row.id },
        workspaceId: row.workspace_id,
        maxAttempts: 3,
      });
    });
  }
  if (due.length) services.wake?.();
  return due.length;
}
