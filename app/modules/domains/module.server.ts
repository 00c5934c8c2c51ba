import { defineModule } from "~/lib/module";
import { siteDomainRegistry, type SiteDomainRegistry } from "./registry.server";

declare module "~/lib/context" {
  interface AppServices {
    siteDomains: SiteDomainRegistry;
  }
}

export const domainsModule = defineModule({
  name: "domains",
  services: ({ db }) => ({ siteDomains: siteDomainRegistry(db) }),
});
