import type { Migration } from "kysely";
import * as m0001 from "./0001-foundation";
import * as m0002 from "./0002-rate-limit-counters";
import * as m0003 from "./0003-api-keys";
import * as m0004 from "./0004-api-rate-windows";
import * as m0005 from "./0005-sops";
import * as m0006 from "./0006-oauth";
import * as m0007 from "./0007-mail-idempotency-per-workspace";
import * as m0008 from "./0008-contacts-idempotency-per-workspace";
import * as m0009 from "./0009-accounts-signup-requests";
import * as m0010 from "./0010-sops-cancelled-runs-and-replayed-triggers";
import * as m0011 from "./0011-sops-trigger-limits";
import * as m0012 from "./0012-health-probe";
import * as m0013 from "./0013-tenancy-invitations";
import * as m0014 from "./0014-auth-known-addresses";
import * as m0015 from "./0015-files";
import * as m0016 from "./0016-sites-pages";
import * as m0017 from "./0017-sites-branding";
import * as m0018 from "./0018-sites-policies";
import * as m0019 from "./0019-contacts-messages";
import * as m0020 from "./0020-tenancy-previous-slugs";
import * as m0021 from "./0021-sites-discovery";
import * as m0022 from "./0022-sites-access";
import * as m0023 from "./0023-domains";
import * as m0024 from "./0024-webhook-receivers";
import * as m0025 from "./0025-cache-purges";
import * as m0026 from "./0026-customers";
import * as m0027 from "./0027-commerce";
import * as m0028 from "./0028-commerce-payment-providers";
import * as m0029 from "./0029-commerce-subscriptions";
import * as m0030 from "./0030-commerce-payouts";
import * as m0031 from "./0031-commerce-shipments";
import * as m0032 from "./0032-scheduling";
import * as m0033 from "./0033-chat";

/**
 * The explicit, ordered list of migrations. No folder scanning: the server is bundled, so a new
 * migration must be imported here.
 *
 * Names are permanent once released: a deployed database records each name it ran, so a released migration
 * is never renamed, split or edited. Each new table is created in a migration named after its owning module
 * (`NNNN-<owner>-<what>`, owner as in `db/schema/<owner>.ts`), and later changes to it follow the same rule.
 * The older names predate that rule: 0001-foundation made the accounts, tenancy, auth and audit tables;
 * 0005-sops also made the jobs, mail, webhooks and contacts tables; 0006-oauth also made rate-limit's
 * `oauth_rate_windows`. Each `db/schema/<owner>.ts` names the migrations that made its tables.
 */
export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
  "0002-rate-limit-counters": m0002,
  "0003-api-keys": m0003,
  "0004-api-rate-windows": m0004,
  "0005-sops": m0005,
  "0006-oauth": m0006,
  "0007-mail-idempotency-per-workspace": m0007,
  "0008-contacts-idempotency-per-workspace": m0008,
  "0009-accounts-signup-requests": m0009,
  "0010-sops-cancelled-runs-and-replayed-triggers": m0010,
  "0011-sops-trigger-limits": m0011,
  "0012-health-probe": m0012,
  "0013-tenancy-invitations": m0013,
  "0014-auth-known-addresses": m0014,
  "0015-files": m0015,
  "0016-sites-pages": m0016,
  "0017-sites-branding": m0017,
  "0018-sites-policies": m0018,
  "0019-contacts-messages": m0019,
  "0020-tenancy-previous-slugs": m0020,
  "0021-sites-discovery": m0021,
  "0022-sites-access": m0022,
  "0023-domains": m0023,
  "0024-webhook-receivers": m0024,
  "0025-cache-purges": m0025,
  "0026-customers": m0026,
  "0027-commerce": m0027,
  "0028-commerce-payment-providers": m0028,
  "0029-commerce-subscriptions": m0029,
  "0030-commerce-payouts": m0030,
  "0031-commerce-shipments": m0031,
  "0032-scheduling": m0032,
  "0033-chat": m0033,
};
