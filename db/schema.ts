/**
 * The database as Kysely sees it, composed from each owning module's tables (`db/schema/<owner>.ts`). Portable
 * types only (DESIGN rule 5): text ids (ULID), ISO-8601 UTC text timestamps, 0/1 flags, JSON as text. Both
 * dialects read and write exactly these shapes.
 *
 * A new module adds its file under `db/schema/` and one entry in each list below. A table named by two owners
 * with different shapes fails to compile here; one name, one owner is the rule all the same.
 */
import type { AccountsTables } from "./schema/accounts";
import type { ApiKeysTables } from "./schema/api-keys";
import type { AuditTables } from "./schema/audit";
import type { AuthTables } from "./schema/auth";
import type { ChatTables } from "./schema/chat";
import type { CacheTables } from "./schema/cache";
import type { CommerceTables } from "./schema/commerce";
import type { ContactsTables } from "./schema/contacts";
import type { CustomersTables } from "./schema/customers";
import type { DomainsTables } from "./schema/domains";
import type { FilesTables } from "./schema/files";
import type { HealthTables } from "./schema/health";
import type { JobsTables } from "./schema/jobs";
import type { MailTables } from "./schema/mail";
import type { OAuthTables } from "./schema/oauth";
import type { RateLimitTables } from "./schema/rate-limit";
import type { SchedulingTables } from "./schema/scheduling";
import type { SitesAccessTables } from "./schema/sites-access";
import type { SitesBrandingTables } from "./schema/sites-branding";
import type { SitesDiscoveryTables } from "./schema/sites-discovery";
import type { SitesPagesTables } from "./schema/sites-pages";
import type { SitesPoliciesTables } from "./schema/sites-policies";
import type { SopsTables } from "./schema/sops";
import type { TenancyTables } from "./schema/tenancy";
import type { WebhooksTables } from "./schema/webhooks";
import type { WebhookReceiversTables } from "./schema/webhook-receivers";

export interface Database
  extends
    AccountsTables,
    TenancyTables,
    AuthTables,
    AuditTables,
    ApiKeysTables,
    RateLimitTables,
    SopsTables,
    JobsTables,
    WebhooksTables,
    MailTables,
    ContactsTables,
    CustomersTables,
    CommerceTables,
    SchedulingTables,
    ChatTables,
    OAuthTables,
    HealthTables,
    CacheTables,
    FilesTables,
    SitesBrandingTables,
    SitesPagesTables,
    SitesPoliciesTables,
    SitesDiscoveryTables,
    SitesAccessTables,
    DomainsTables,
    WebhookReceiversTables {}

// Every owner's types stay importable from "~db/schema", so callers need not know which file holds a table.
export * from "./schema/accounts";
export * from "./schema/commerce";
export * from "./schema/api-keys";
export * from "./schema/audit";
export * from "./schema/cache";
export * from "./schema/chat";
export * from "./schema/customers";
export * from "./schema/auth";
export * from "./schema/contacts";
export * from "./schema/domains";
export * from "./schema/files";
export * from "./schema/health";
export * from "./schema/jobs";
export * from "./schema/mail";
export * from "./schema/oauth";
export * from "./schema/rate-limit";
export * from "./schema/sites-access";
export * from "./schema/sites-branding";
export * from "./schema/sites-discovery";
export * from "./schema/sites-pages";
export * from "./schema/sites-policies";
export * from "./schema/sops";
export * from "./schema/tenancy";
export * from "./schema/webhooks";
export * from "./schema/webhook-receivers";
