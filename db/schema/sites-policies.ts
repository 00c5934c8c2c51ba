/** Owned by `app/modules/sites` (policies.server.ts). Created in 0018-sites-policies. */

export type PolicyKind = "privacy" | "terms" | "refund" | "shipping";

export interface SitePoliciesTable {
  id: string;
  workspace_id: string;
  kind: PolicyKind;
  title: string;
  /** What the operator wrote. */
  markdown: string;
  /** `markdown` rendered and sanitised when it was saved (app/modules/sites/markdown.server.ts). */
  html: string;
  /** 0/1: shown at `/{site}/policies/{kind}` and in the footer only when 1. */
  published: number;
  created_at: string;
  updated_at: string;
}

export interface SitesPoliciesTables {
  site_policies: SitePoliciesTable;
}
