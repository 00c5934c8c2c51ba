import { defineModule } from "~/lib/module";
import { siteDomainRegistry, type SiteDomainRegistry } from "./registry.server";

declare module "~/lib/context" {
  interface AppServices {
    siteDomains: SiteDomainRegistry;
  }
}

export const domainsModule = defineModule({
  name: "domains",
  services: ({ db, env, logger }) => ({
    siteDomains: siteDomainRegistry(db, {
      refreshMs: env.DOMAINS_REFRESH_MS,
      onError: (error) => logger.warn({ err: error }, "custom domains: reload failed; the previous list still serves"),
    }),
  }),
});
