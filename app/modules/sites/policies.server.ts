/**
 * A site's policies — privacy, terms, refund, shipping — written in Markdown in the console and shown at
 * `/{site}/policies/{kind}` once published, with links in the site's footer (`policyLinks`). The HTML is
 * rendered and sanitised when a policy is saved (renderMarkdown), never per request. Built for one workspace
 * (DESIGN rule 2); each save records its audit event in its own transaction.
 */
import type { LinkBase } from "~/lib/link-base";
import { z } from "zod";
import { isUniqueViolation, type Db } from "~db/client";
import { isoNow } from "~/lib/clock.server";
import { invalid, notFound, type FieldIssue } from "~/lib/errors";
import { newId } from "~/lib/ids.server";
import { recordWorkspaceEvent } from "~/modules/audit/audit.server";
import { writeAndPurge } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { markdownToText, renderMarkdown } from "./markdown.server";
import { POLICY_KINDS, POLICY_LABELS, POLICY_MAX_LENGTH, policyPath, type PolicyKind } from "./policy-kinds";
import { policyTemplate } from "./policy-templates";

export const PolicyInput = z.object({
  title: z.string().trim().min(1, "Give the policy a title").max(120, "Use at most 120 characters"),
  markdown: z
    .string()
    .trim()
    .min(1, "Write the policy, or start from the template")
    .max(POLICY_MAX_LENGTH, `Keep the policy under ${POLICY_MAX_LENGTH.toLocaleString("en")} characters`),
  published: z.boolean(),
});
export type PolicyInput = z.input<typeof PolicyInput>;

export interface Policy {
  kind: PolicyKind;
  title: string;
  markdown: string;
  html: string;
  published: boolean;
  updatedAt: string;
}

export interface PolicySummary {
  kind: PolicyKind;
  title: string;
  about: string;
  status: "not-written" | "draft" | "published";
  updatedAt: string | null;
}

// Markdown is rendered without raw HTML and sanitised whatever it says, so these could do no harm on the page;
// they are refused so the operator learns that the text will not appear as they meant, instead of finding it
// silently dropped.
const RAW_HTML = /<\/?[a-z][a-z0-9-]*(?=[\s/>])/i;
const SCRIPT_LINK = /(\]\(\s*<?|^\s*\[[^\]]+\]:\s*<?|<)\s*(javascript|vbscript|data|file)\s*:/im;

/** A message next to the Markdown field for what Markdown here does not do, or undefined when it is fine. */
export function markdownIssue(markdown: string): string | undefined {
  const tag = RAW_HTML.exec(markdown);
  if (tag) return `Remove the HTML (${tag[0]}…): write the policy in Markdown; HTML is not shown on your site`;
  if (SCRIPT_LINK.test(markdown)) return "Links must start with https://, http://, mailto: or tel:";
  return undefined;
}

function parsePolicy(input: PolicyInput) {
  const parsed = PolicyInput.safeParse(input);
  const issues: FieldIssue[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
  const unsafe = typeof input.markdown === "string" ? markdownIssue(input.markdown) : undefined;
  if (unsafe && !issues.some((i) => i.field === "markdown")) issues.push({ field: "markdown", message: unsafe });
  if (!parsed.success || issues.length) throw invalid("Check the highlighted fields", issues);
  return parsed.data;
}

const toPolicy = (row: {
  kind: PolicyKind;
  title: string;
  markdown: string;
  html: string;
  published: number;
  updated_at: string;
}): Policy => ({
  kind: row.kind,
  title: row.title,
  markdown: row.markdown,
  html: row.html,
  published: row.published === 1,
  updatedAt: row.updated_at,
});

export function policiesOf(db: Db, workspaceId: string) {
  const rows = () =>
    db
      .selectFrom("site_policies")
      .where("workspace_id", "=", workspaceId)
      .select(["kind", "title", "markdown", "html", "published", "updated_at"]);

  // The footer's policy links, the policy pages, the contact page's privacy link and the sitemap all carry
  // the site's `settings` tag (ADR 026): a policy's save purges it.
  const policyTags = [cacheTags.settings(workspaceId)];

  async function get(kind: PolicyKind): Promise<Policy | undefined> {
    const row = await rows().where("kind", "=", kind).executeTakeFirst();
    return row ? toPolicy(row) : undefined;
  }

  return {
    get,

    /** Every kind, written or not, in the console's order. */
    async overview(): Promise<PolicySummary[]> {
      const written = await rows().execute();
      return POLICY_KINDS.map((kind) => {
        const row = written.find((r) => r.kind === kind);
        return {
          kind,
          title: row?.title ?? POLICY_LABELS[kind].title,
          about: POLICY_LABELS[kind].about,
          status: !row ? "not-written" : row.published === 1 ? "published" : "draft",
          updatedAt: row?.updated_at ?? null,
        };
      });
    },

    /** The published policies, in the console's order (the public index and the footer). */
    async published(): Promise<Policy[]> {
      const found = (await rows().where("published", "=", 1).execute()).map(toPolicy);
      return POLICY_KINDS.flatMap((kind) => found.filter((p) => p.kind === kind));
    },

    /** A published policy, or not found: a draft answers the public as if it did not exist. */
    async publishedOne(kind: PolicyKind): Promise<Policy> {
      const policy = await get(kind);
      if (!policy?.published) throw notFound("That policy was not found");
      return policy;
    },

    /** Writes the policy (created on its first save), rendered once here. */
    async save(actorUserId: string | null, kind: PolicyKind, input: PolicyInput): Promise<Policy> {
      const { title, markdown, published } = parsePolicy(input);
      const html = renderMarkdown(markdown);
      const at = isoNow();
      const values = { title, markdown, html, published: published ? 1 : 0, updated_at: at };
      const write = () =>
        writeAndPurge(db, async (trx, purge) => {
          purge(...policyTags);
          const updated = await trx
            .updateTable("site_policies")
            .set(values)
            .where("workspace_id", "=", workspaceId)
            .where("kind", "=", kind)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) {
            await trx
              .insertInto("site_policies")
              .values({ id: newId(), workspace_id: workspaceId, kind, created_at: at, ...values })
              .execute();
          }
          await recordWorkspaceEvent(trx, workspaceId, {
            action: "policy.saved",
            actorUserId,
            detail: { kind, published },
          });
        });
      try {
        await write();
      } catch (error) {
        // Two first saves at once: the other created the row, so this one updates it.
        if (!isUniqueViolation(error)) throw error;
        await write();
      }
      return { kind, title, markdown, html, published, updatedAt: at };
    },

    async setPublished(actorUserId: string, kind: PolicyKind, published: boolean): Promise<void> {
      const policy = await get(kind);
      if (!policy) throw notFound("Write the policy before publishing it");
      await writeAndPurge(db, async (trx, purge) => {
        purge(...policyTags);
        await trx
          .updateTable("site_policies")
          .set({ published: published ? 1 : 0, updated_at: isoNow() })
          .where("workspace_id", "=", workspaceId)
          .where("kind", "=", kind)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, {
          action: published ? "policy.published" : "policy.unpublished",
          actorUserId,
          detail: { kind },
        });
      });
    },

    async remove(actorUserId: string, kind: PolicyKind): Promise<void> {
      if (!(await get(kind))) throw notFound("That policy was not found");
      await writeAndPurge(db, async (trx, purge) => {
        purge(...policyTags);
        await trx
          .deleteFrom("site_policies")
          .where("workspace_id", "=", workspaceId)
          .where("kind", "=", kind)
          .execute();
        await recordWorkspaceEvent(trx, workspaceId, { action: "policy.deleted", actorUserId, detail: { kind } });
      });
    },
  };
}

/** The footer's policy links: the published policies of the site, each at `{base}/policies/{kind}`. */
export async function policyLinks(
  db: Db,
  workspaceId: string,
  base: LinkBase,
): Promise<{ label: string; href: string }[]> {
  return (await policiesOf(db, workspaceId).published()).map((p) => ({
    label: p.title,
    href: policyPath(base, p.kind),
  }));
}

/** A policy's meta description and summary: its first paragraph that is not a heading, as plain text. */
export function policyDescription(policy: Pick<Policy, "markdown">): string {
  const paragraph = policy.markdown.split(/\n\s*\n/).find((block) => block.trim() && !/^\s*#/.test(block));
  return markdownToText(paragraph ?? policy.markdown, 160);
}

/**
 * The demo's policies (privacy, terms and refund, published), from the same templates the console offers,
 * for the workspace's own name. Writes nothing over a policy the workspace already has.
 */
export async function seedDemoPolicies(db: Db, workspaceId: string): Promise<void> {
  const workspace = await db.selectFrom("workspaces").select("name").where("id", "=", workspaceId).executeTakeFirst();
  if (!workspace) throw notFound("No such workspace");
  const policies = policiesOf(db, workspaceId);
  for (const kind of ["privacy", "terms", "refund"] as const) {
    if (await policies.get(kind)) continue;
    await policies.save(null, kind, {
      title: POLICY_LABELS[kind].title,
      markdown: policyTemplate(kind, { businessName: workspace.name }),
      published: true,
    });
  }
}
