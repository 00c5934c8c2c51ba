/**
 * Which verified custom domain serves which site (issue 14, ADR 025): read on every request by server.ts (host
 * check, path rewrite, the `/{slug}/*` redirect) and by every absolute URL a site builds (`siteAddressOf`), so
 * a hit is a memory read.
 *
 * The whole set is held in memory: every verified or failing row of `site_domains` with its workspace's slug,
 * loaded in one query. It is small (a name per site at most a few), and holding all of it means an unknown
 * host is answered from memory too: a stream of requests for made-up names costs no query (the host check
 * asks for every request). It is reloaded every `DOMAINS_REFRESH_MS` (other nodes' changes, and the domains
 * job's verdicts, show within that) and at the next read after `invalidate()` (this node's own changes show
 * at once). A reload in time runs behind the answers (the previous set serves meanwhile); a reload after
 * `invalidate()` is waited for, so the request after a change sees it.
 *
 * What each status means here:
 * - `verified`: the host serves the site; a primary one is the site's final address, and `/{slug}/*` on the
 *   deployment's host redirects to it when its switch is on, as do the site's other domains (aliases), always.
 * - `failing` (was verified, the latest checks did not find it): the host still serves the site (visitors whose
 *   DNS still points here keep the site) and, when primary, stays the final address (a transient DNS fault must
 *   not rewrite every canonical URL and sitemap back and forth), but `/{slug}/*` is not redirected to it: the
 *   name may not resolve, and a redirect would send visitors nowhere.
 * - `pending`: nothing; the host is refused (421) like any unknown name.
 *
 * A suspended owner's site keeps its host: the site answers its neutral 503 page (the `$site` layout), as on
 * the deployment's host.
 */
import type { Db } from "~db/client";

export interface DomainSite {
  hostname: string;
  workspaceId: string;
  slug: string;
}

/** A site whose `/{slug}/*` on the deployment's host answers 301 to its primary domain. */
export interface PathRedirect {
  workspaceId: string;
  domain: string;
}

export interface SiteDomainRegistry {
  /** The site a verified custom domain serves, or null. `hostname` as `hostnameOf` gives it. */
  siteOfHost(hostname: string): Promise<DomainSite | null>;
  /** The verified primary domain of a workspace's site, or null. */
  primaryDomainOf(workspaceId: string): Promise<string | null>;
  /**
   * By the site's current slug (the first segment of a path on the deployment's host): where `/{slug}/*`
   * answers 301 to, or null when it does not (no primary domain, switched off, or the domain is failing).
   */
  pathRedirectOf(slug: string): Promise<PathRedirect | null>;
  /**
   * For a served domain that is not its site's primary one (an alias), the primary domain every request to it
   * answers 301 to, when that one is verified (a failing primary may not resolve); else null.
   */
  aliasRedirectOf(hostname: string): Promise<string | null>;
  /** Forget what is cached: after a domain changes state, a workspace changes slug, is suspended or deleted. */
  invalidate(): void;
  /**
   * Synchronously, from the set in memory: whether `hostname` serves a site, or null when the set is not known
   * to be current (never loaded, or `invalidate()` since). The page cache's hit path asks (ADR 026): a stored
   * page of a host that no longer serves must not be answered, and it cannot wait for a reload.
   */
  servesNow(hostname: string): boolean | null;
}

interface Snapshot {
  byHost: Map<string, DomainSite>;
  primaryOf: Map<string, string>;
  redirectBySlug: Map<string, PathRedirect>;
  aliasOf: Map<string, string>;
}

const SERVED_STATUSES = ["verified", "failing"];

async function load(db: Db): Promise<Snapshot> {
  const rows = await db
    .selectFrom("site_domains")
    .innerJoin("workspaces", "workspaces.id", "site_domains.workspace_id")
    .select([
      "site_domains.hostname",
      "site_domains.workspace_id",
      "site_domains.status",
      "site_domains.is_primary",
      "site_domains.redirect_path",
      "workspaces.slug",
    ])
    .where("site_domains.status", "in", SERVED_STATUSES)
    .execute();
  const snapshot: Snapshot = { byHost: new Map(), primaryOf: new Map(), redirectBySlug: new Map(), aliasOf: new Map() };
  const verifiedPrimary = new Map(
    rows
      .filter((row) => row.is_primary === 1 && row.status === "verified")
      .map((row) => [row.workspace_id, row.hostname]),
  );
  for (const row of rows) {
    snapshot.byHost.set(row.hostname, { hostname: row.hostname, workspaceId: row.workspace_id, slug: row.slug });
    const primary = verifiedPrimary.get(row.workspace_id);
    if (row.is_primary !== 1 && primary) snapshot.aliasOf.set(row.hostname, primary);
    if (row.is_primary !== 1) continue;
    const redirect = row.redirect_path === 1 && row.status === "verified";
    snapshot.primaryOf.set(row.workspace_id, row.hostname);
    if (redirect) snapshot.redirectBySlug.set(row.slug, { workspaceId: row.workspace_id, domain: row.hostname });
  }
  return snapshot;
}

export interface RegistryOptions {
  /** How old the set may get before it is reloaded (`DOMAINS_REFRESH_MS`). */
  refreshMs: number;
  /** For tests of the timing; Date.now otherwise. */
  now?: () => number;
  /** A failed reload is logged and the previous set kept (the site must not vanish for a database blip). */
  onError?: (error: unknown) => void;
}

export function siteDomainRegistry(db: Db, options: RegistryOptions = { refreshMs: 30_000 }): SiteDomainRegistry {
  const now = options.now ?? Date.now;
  let snapshot: Snapshot | undefined;
  let loadedAt = 0;
  /** Bumped by `invalidate()`: a reload that started before it must not pass for a fresh one. */
  let generation = 0;
  let loadedGeneration = -1;
  let inFlight: Promise<Snapshot> | undefined;

  const reload = (): Promise<Snapshot> => {
    if (inFlight) return inFlight;
    const started = generation;
    const startedAt = now();
    const attempt = load(db).then(
      (fresh) => {
        snapshot = fresh;
        loadedAt = startedAt;
        loadedGeneration = started;
        return fresh;
      },
      (error: unknown) => {
        if (!snapshot) throw error;
        options.onError?.(error);
        // Try again at the next refresh, not at every request (a down database would get one per request).
        loadedAt = startedAt;
        loadedGeneration = started;
        return snapshot;
      },
    );
    inFlight = attempt.finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const current = async (): Promise<Snapshot> => {
    // Never loaded, or changed here since: wait for the set that includes the change.
    if (!snapshot || loadedGeneration !== generation) {
      let fresh = await reload();
      // The reload in flight began before the change: one more, which sees it.
      if (loadedGeneration !== generation) fresh = await reload();
      return fresh;
    }
    if (now() - loadedAt >= options.refreshMs) void reload().catch(() => {});
    return snapshot;
  };

  return {
    siteOfHost: async (hostname) => (await current()).byHost.get(hostname) ?? null,
    primaryDomainOf: async (workspaceId) => (await current()).primaryOf.get(workspaceId) ?? null,
    pathRedirectOf: async (slug) => (await current()).redirectBySlug.get(slug) ?? null,
    aliasRedirectOf: async (hostname) => (await current()).aliasOf.get(hostname) ?? null,
    invalidate: () => {
      generation += 1;
    },
    servesNow: (hostname) => {
      if (!snapshot || loadedGeneration !== generation) return null;
      if (now() - loadedAt >= options.refreshMs) void reload().catch(() => {});
      return snapshot.byHost.has(hostname);
    },
  };
}
