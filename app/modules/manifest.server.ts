/**
 * The modules of this app, in the order they are built and started (and stopped in reverse): a module's services
 * may use those of the modules before it. Adding a module is one line here (docs/adding-a-module.md); bootstrap
 * reads only this list.
 */
import type { AtriumModule } from "~/lib/module";
import { authModule } from "./auth/module.server";
import { cacheModule } from "./cache/module.server";
import { commerceModule } from "./commerce/module.server";
import { contactsModule } from "./contacts/module.server";
import { customersModule } from "./customers/module.server";
import { indexNowModule } from "./discovery/indexnow-module.server";
import { domainsModule } from "./domains/module.server";
import { eventsModule } from "./events/module.server";
import { filesModule } from "./files/module.server";
import { hostsModule } from "./hosts/module.server";
import { jobsModule } from "./jobs/module.server";
import { mailModule } from "./mail/module.server";
import { oauthModule } from "./oauth/module.server";
import { outboundModule } from "./outbound/module.server";
import { rateLimitModule } from "./rate-limit/module.server";
import { secretsModule } from "./secrets/module.server";
import { schedulingModule } from "./scheduling/module.server";
import { searchModule } from "./search/module.server";
import { chatModule } from "./chat/module.server";
import { sitesModule } from "./sites/module.server";
import { sopsModule } from "./sops/module.server";
import { tenancyModule } from "./tenancy/module.server";

export const MODULES: readonly AtriumModule[] = [
  hostsModule,
  domainsModule,
  secretsModule,
  cacheModule,
  mailModule,
  outboundModule,
  rateLimitModule,
  authModule,
  oauthModule,
  sopsModule,
  filesModule,
  sitesModule,
  contactsModule,
  customersModule,
  commerceModule,
  schedulingModule,
  indexNowModule,
  searchModule,
  chatModule,
  eventsModule,
  tenancyModule,
  // Last: it starts once every module's handlers exist, and stops first, so no job is still running on a
  // service another module has already stopped.
  jobsModule,
];
