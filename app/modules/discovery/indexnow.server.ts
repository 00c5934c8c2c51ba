/**
 * IndexNow (ADR 022): telling search engines (Bing, Yandex, Seznam, Naver… through the shared endpoint) that a
 * site's pages changed, so they recrawl them in minutes rather than weeks.
 *
 * - Settings: on/off and the site's key (32 hex characters from `crypto`), in site_discovery's indexnow
 *   columns; the key is served at `/{site}/indexnow`, which the submission names as its `keyLocation`, so the
 *   protocol accepts URLs under the site's base path as well as at a custom domain's root.
 * - Submissions: publishing, unpublishing or changing the home page calls `queueIndexNow` inside its own
 *   transaction. The changed site paths gather in the workspace's one `queued` submission row; the first of
 *   them also queues a job a few seconds ahead. When the job runs it closes the row (`sending`), so several
 *   publishes in that window become one POST, and a publish after it starts a new row.
 * - The POST goes through the outbound guard to `INDEXNOW_ENDPOINT`; the outcome is kept on the row for the
 *   console: 200/202 sent, 400/403/422 failed with what IndexNow says those mean, 429/5xx retried with backoff.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "~db/client";
import { isoNow, now } from "~/lib/clock.server";
import type { AppLoadContext } from "@remix-run/node";
import type { AppServices } from "~/lib/context";
import { invalid, issuesOf } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { pageCount, pageOf } from "~/lib/pagination.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { enqueueJob, JobInterrupted, RetryableError, type Job, type JobControl } from "~/modules/jobs/jobs.server";
import { OutboundError, outboundRequest } from "~/modules/outbound/outbound-http.server";
import { resolveOrigin } from "~/modules/hosts/hosts.server";
import { siteVisibilityOf } from "~/modules/site-access/visibility.server";
import { siteAddressOf, siteUrl, type SiteAddress } from "~/modules/sites/address.server";
import { pageSitePath } from "~/modules/sites/pages.server";
import { discoverySettingsOf } from "./settings.server";

export const INDEXNOW_JOB = "discovery.indexnow-submit";
/** How long changes gather before one submission: a burst of publishes is one POST. */
export const INDEXNOW_DELAY_MS = 3000;
const MAX_ATTEMPTS = 6;
/** IndexNow takes up to 10,000 URLs a POST; a workspace's burst is far below, but a row never grows past it. */
const MAX_URLS = 10_000;

export const NO_ADDRESS_REASON = "the site has no public address yet: set PUBLIC_URL";

export type SubmissionStatus = "queued" | "sending" | "sent" | "failed" | "skipped";

export interface IndexNowSettings {
  enabled: boolean;
  key: string | null;
}

export interface IndexNowSubmission {
  id: string;
  status: SubmissionStatus;
  /** Site paths while queued (`""` is the home page), absolute URLs once sent. */
  urls: string[];
  responseStatus: number | null;
  /** Why it failed or was skipped; what happens next while it is retried. */
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** 32 hex characters: inside the protocol's 8–128 of `[a-zA-Z0-9-]`, and unguessable. */
export const newIndexNowKey = () => randomBytes(16).toString("hex");

export const IndexNowInput = z.object({
  enabled: z.boolean({ message: "Say whether IndexNow is on (true) or off (false)" }),
  /** Replace the key (the old key file stops answering at once). */
  regenerateKey: z.boolean().optional().default(false),
});
export type IndexNowInput = z.input<typeof IndexNowInput>;

type Row = {
  id: string;
  status: string;
  urls: string;
  response_status: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
};

function toSubmission(row: Row): IndexNowSubmission {
  return {
    id: row.id,
    status: row.status as SubmissionStatus,
    urls: JSON.parse(row.urls) as string[],
    responseStatus: row.response_status,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** One workspace's IndexNow settings and submissions (the console page and the editor API call these). */
export function indexNowOf(db: Db, workspaceId: string) {
  const settingsRow = () =>
    db
      .selectFrom("site_discovery")
      .select(["indexnow_enabled", "indexnow_key"])
      .where("workspace_id", "=", workspaceId);
  const submissions = () => db.selectFrom("indexnow_submissions").where("workspace_id", "=", workspaceId);

  const self = {
    async settings(): Promise<IndexNowSettings> {
      const row = await settingsRow().executeTakeFirst();
      return { enabled: row?.indexnow_enabled === 1, key: row?.indexnow_key ?? null };
    },

    /**
     * Turns IndexNow on or off, or replaces its key. Turning it on the first time makes a key; turning it off
     * keeps the key (turned on again, the same key file answers). Writes only the indexnow columns, so the
     * other discovery settings of the same row are untouched.
     */
    async update(actorUserId: string | null, input: unknown): Promise<IndexNowSettings> {
      const parsed = IndexNowInput.safeParse(input);
      if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
      const { enabled, regenerateKey } = parsed.data;
      // The key file (`/{site}/indexnow`) is tagged `settings` (ADR 026).
      await writeAndPurge(db, async (trx, purge) => {
        purge(cacheTags.settings(workspaceId));
        const current = await trx
          .selectFrom("site_discovery")
          .select(["indexnow_enabled", "indexnow_key"])
          .where("workspace_id", "=", workspaceId)
          .executeTakeFirst();
        const key =
          regenerateKey || (enabled && !current?.indexnow_key) ? newIndexNowKey() : (current?.indexnow_key ?? null);
        const columns = { indexnow_enabled: enabled ? 1 : 0, indexnow_key: key, updated_at: isoNow() };
        await trx
          .insertInto("site_discovery")
          // A new row gets the other settings' defaults; an existing one keeps them (only these columns change).
          .values({ workspace_id: workspaceId, noindex: 0, llms_enabled: 0, llms_summary: "", ...columns })
          .onConflict((oc) => oc.column("workspace_id").doUpdateSet(columns))
          .execute();
        if (actorUserId && (regenerateKey || enabled !== (current?.indexnow_enabled === 1))) {
          await recordWorkspaceEvent(trx, workspaceId, {
            action: regenerateKey
              ? "site.indexnow.key_replaced"
              : enabled
                ? "site.indexnow.enabled"
                : "site.indexnow.disabled",
            actorUserId,
          });
        }
      });
      return self.settings();
    },

    /** Newest first. */
    async submissions(window: {
      size: number;
      offset: number;
    }): Promise<{ items: IndexNowSubmission[]; total: number }> {
      const [rows, count] = await Promise.all([
        submissions()
          .selectAll()
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(window.size)
          .offset(window.offset)
          .execute(),
        submissions()
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toSubmission), total: Number(count.n) };
    },
  };
  return self;
}

/**
 * Queues a submission of `sitePaths` (`""` for the home page, `/about`) when the workspace has IndexNow on.
 * Call it with the transaction that publishes: the change and its submission commit together or not at all.
 */
export async function queueIndexNow(trx: Db, workspaceId: string, sitePaths: readonly string[]): Promise<void> {
  if (sitePaths.length === 0) return;
  const settings = await trx
    .selectFrom("site_discovery")
    .select(["indexnow_enabled", "indexnow_key"])
    .where("workspace_id", "=", workspaceId)
    .executeTakeFirst();
  if (settings?.indexnow_enabled !== 1 || !settings.indexnow_key) return;
  const at = isoNow();
  const open = await trx
    .selectFrom("indexnow_submissions")
    .select(["id", "urls"])
    .where("workspace_id", "=", workspaceId)
    .where("status", "=", "queued")
    .orderBy("created_at")
    .executeTakeFirst();
  if (open) {
    const urls = [...new Set([...(JSON.parse(open.urls) as string[]), ...sitePaths])].slice(0, MAX_URLS);
    // The job may have closed the row since it was read: then this change starts a row of its own.
    const joined = await trx
      .updateTable("indexnow_submissions")
      .set({ urls: JSON.stringify(urls), updated_at: at })
      .where("id", "=", open.id)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(joined.numUpdatedRows) > 0) return;
  }
  const id = newId();
  await trx
    .insertInto("indexnow_submissions")
    .values({
      id,
      workspace_id: workspaceId,
      urls: JSON.stringify([...new Set(sitePaths)]),
      status: "queued",
      response_status: null,
      error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await enqueueJob(trx, {
    kind: INDEXNOW_JOB,
    workspaceId,
    payload: { submissionId: id },
    maxAttempts: MAX_ATTEMPTS,
    runAt: new Date(now().getTime() + INDEXNOW_DELAY_MS),
  });
}

/**
 * Where the console shows the key file: at the site's final address, or where this request came in when the
 * site has none yet (then `submissionsSkipped`: a job, outside any request, has no address to submit).
 */
export async function indexNowAddresses(
  request: Request,
  context: AppLoadContext,
  workspace: { id: string; slug: string },
): Promise<{ keyUrl: string; submissionsSkipped: boolean }> {
  const { services } = context;
  const final = await siteAddressOf(services, workspace, null);
  const address = final ?? (await siteAddressOf(services, workspace, await resolveOrigin(request, context)));
  return {
    keyUrl: address ? siteUrl(address, "/indexnow") : `/${workspace.slug}/indexnow`,
    submissionsSkipped: !final,
  };
}

/** Submissions a page of the console's list and of the editor API's answer holds. */
export const INDEXNOW_PAGE_SIZE = 20;

export interface IndexNowView {
  enabled: boolean;
  key: string | null;
  /** Where the key file is (`indexNowAddresses`), whether IndexNow is on or not. */
  keyUrl: string;
  /** The site has no public address outside a request yet (PUBLIC_URL unset): submissions are skipped. */
  submissionsSkipped: boolean;
  submissions: { items: IndexNowSubmission[]; page: number; pages: number; total: number };
}

/** What the console's /discovery/indexnow and `GET /api/editor/discovery/seo/indexnow` show (`?page=`). */
export async function indexNowView(
  request: Request,
  context: AppLoadContext,
  workspace: { id: string; slug: string },
): Promise<IndexNowView> {
  const repo = indexNowOf(context.services.db, workspace.id);
  const { page, ...window } = pageOf(request, INDEXNOW_PAGE_SIZE);
  const [settings, submissions, addresses] = await Promise.all([
    repo.settings(),
    repo.submissions(window),
    indexNowAddresses(request, context, workspace),
  ]);
  return {
    enabled: settings.enabled,
    key: settings.key,
    keyUrl: addresses.keyUrl,
    submissionsSkipped: addresses.submissionsSkipped,
    submissions: { ...submissions, page, pages: pageCount(submissions.total, INDEXNOW_PAGE_SIZE) },
  };
}

/** What IndexNow's documentation says each refusal means, for the console. */
export function describeIndexNowStatus(status: number): string {
  switch (status) {
    case 400:
      return "Bad request (400): the submission was not in the format IndexNow expects";
    case 403:
      return "Forbidden (403): the key was not valid; the search engine could not find it at the key file's address, or it did not match";
    case 422:
      return "Unprocessable (422): the URLs do not belong to the host, or the key does not match the protocol's format";
    case 429:
      return "Too many requests (429): the search engine asked us to slow down";
    default:
      return status >= 500 ? `The IndexNow service had an error (${status})` : `Unexpected answer (${status})`;
  }
}

export const PROTECTED_REASON = "the site is protected by a password: its pages are not sent to search engines";
export const HIDDEN_REASON = "the site is hidden from search engines (Search appearance)";
export const NOINDEX_PAGES_REASON =
  "its pages ask search engines not to index them, or name another page as their canonical address";

/**
 * Why nothing of the site may be sent, or null: a protected site's pages answer with its unlock page, and a
 * site hidden from search engines must not tell them where its pages are (robots.txt and sitemap.xml say the
 * same). Read when the job sends, so a change made while the submission waited counts.
 */
async function closedReason(db: Db, workspaceId: string): Promise<string | null> {
  if ((await siteVisibilityOf(db, workspaceId)) === "protected") return PROTECTED_REASON;
  if ((await discoverySettingsOf(db, workspaceId)).noindex) return HIDDEN_REASON;
  return null;
}

/**
 * `sitePaths` less the pages that ask not to be indexed, or whose canonical address is another page's (the
 * engines would be sent a URL the page itself disowns). A path no page has any more (deleted) is kept: the
 * engine learns it is gone. A page's settings count whether it is published or not, so an unpublished noindex
 * page's address is not sent either.
 */
async function indexablePaths(
  db: Db,
  workspaceId: string,
  address: SiteAddress,
  sitePaths: readonly string[],
): Promise<string[]> {
  if (sitePaths.length === 0) return [];
  const pages = await db
    .selectFrom("site_pages")
    .leftJoin("site_page_seo", "site_page_seo.page_id", "site_pages.id")
    .select(["site_pages.slug", "site_pages.is_home", "site_page_seo.noindex", "site_page_seo.canonical"])
    .where("site_pages.workspace_id", "=", workspaceId)
    .execute();
  // A home page is at the site's address and, redirected from, at `/{slug}`: both are its paths here.
  const bySitePath = new Map(
    pages.flatMap((p) => [
      [`/${p.slug}`, p] as const,
      ...(p.is_home === 1 ? [[pageSitePath({ slug: p.slug, isHome: true }), p] as const] : []),
    ]),
  );
  const comparable = (url: string) => url.replace(/\/+$/, "");
  return sitePaths.filter((path) => {
    const page = bySitePath.get(path);
    if (!page) return true;
    if (page.noindex === 1) return false;
    if (!page.canonical) return true;
    const canonical = page.canonical.startsWith("/")
      ? siteUrl(address, page.canonical === "/" ? "" : page.canonical)
      : page.canonical;
    return comparable(canonical) === comparable(siteUrl(address, path));
  });
}

const Payload = z.object({ submissionId: z.string() });
type SubmitServices = Pick<AppServices, "db" | "env" | "outbound" | "siteDomains">;

/** The job: closes the submission's window, sends it, and records the outcome on its row. */
export function indexNowHandler(services: SubmitServices) {
  const { db } = services;
  return async (job: Job, control: JobControl) => {
    const { submissionId } = Payload.parse(JSON.parse(job.payload));
    const workspaceId = job.workspace_id ?? "";
    const rows = () =>
      db.updateTable("indexnow_submissions").where("id", "=", submissionId).where("workspace_id", "=", workspaceId);
    const record = async (
      status: SubmissionStatus,
      fields: { urls?: string[]; responseStatus?: number | null; error?: string | null },
    ) => {
      if (control.leaseLost) throw new JobInterrupted();
      await rows()
        .set({
          status,
          ...(fields.urls ? { urls: JSON.stringify(fields.urls) } : {}),
          response_status: fields.responseStatus ?? null,
          error: fields.error ?? null,
          updated_at: isoNow(),
        })
        .execute();
    };

    if (control.exhausted) {
      await record("failed", { error: "The submission could not be sent: its attempts ran out" });
      return;
    }
    try {
      await submit();
    } catch (error) {
      if (error instanceof JobInterrupted || error instanceof RetryableError) throw error;
      // Anything unexpected ends this submission: the console must not show it "sending" forever.
      if (!control.leaseLost) await record("failed", { error: "The submission stopped unexpectedly" });
      throw error;
    }

    async function submit(): Promise<void> {
      // Close the window first: later changes start a row of their own, and this one's URLs no longer change.
      await rows().set({ status: "sending", updated_at: isoNow() }).where("status", "=", "queued").execute();
      const row = await db
        .selectFrom("indexnow_submissions")
        .selectAll()
        .where("id", "=", submissionId)
        .where("workspace_id", "=", workspaceId)
        .executeTakeFirst();
      // Gone with its workspace, or already finished by an earlier delivery of this job (at least once).
      if (!row || row.status !== "sending") return;
      const paths = JSON.parse(row.urls) as string[];

      const workspace = await db
        .selectFrom("workspaces")
        .select(["id", "slug"])
        .where("id", "=", workspaceId)
        .executeTakeFirst();
      if (!workspace) return;
      const settings = await indexNowOf(db, workspaceId).settings();
      if (!settings.enabled || !settings.key) {
        await record("skipped", { error: "IndexNow was turned off before the submission was sent" });
        return;
      }
      const address = await siteAddressOf(services as AppServices, workspace, null);
      if (!address) {
        await record("skipped", { error: NO_ADDRESS_REASON });
        return;
      }
      const closed = await closedReason(db, workspaceId);
      if (closed) {
        await record("skipped", { error: closed });
        return;
      }
      // A retry finds absolute URLs already (written before the first attempt, filtered then): they stay as sent.
      const sent = paths.filter((p) => /^https?:\/\//.test(p));
      const kept = await indexablePaths(
        db,
        workspaceId,
        address,
        paths.filter((p) => !/^https?:\/\//.test(p)),
      );
      const urls = [...sent, ...kept.map((p) => siteUrl(address, p))];
      if (urls.length === 0) {
        await record("skipped", { error: NOINDEX_PAGES_REASON });
        return;
      }
      const body = {
        host: new URL(address.origin).host,
        key: settings.key,
        keyLocation: siteUrl(address, "/indexnow"),
        urlList: urls,
      };
      await record("sending", { urls });
      try {
        const response = await outboundRequest(
          {
            url: services.env.INDEXNOW_ENDPOINT,
            method: "POST",
            headers: { "content-type": "application/json; charset=utf-8" },
            body: JSON.stringify(body),
          },
          services.outbound,
        );
        await record("sent", { responseStatus: response.status });
      } catch (error) {
        if (error instanceof JobInterrupted) throw error;
        const outbound = error instanceof OutboundError ? error : null;
        const status = outbound?.status ?? null;
        const reason = status
          ? describeIndexNowStatus(status)
          : (outbound?.message ?? "The submission could not be sent");
        if (outbound?.retryable && !control.lastAttempt) {
          await record("sending", { responseStatus: status, error: `${reason}; trying again shortly` });
          throw new RetryableError(reason);
        }
        await record("failed", { responseStatus: status, error: reason });
      }
    }
  };
}
