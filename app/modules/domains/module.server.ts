import { domainsEvents } from "./events.server";
import { defineModule } from "~/lib/module";
import { RetryableError } from "~/modules/jobs/jobs.server";
import { DOMAIN_CHECK_JOB, domainsConfig, domainsOf, queueDueChecks, type DomainServices } from "./domains.server";
import { siteDomainRegistry, type SiteDomainRegistry } from "./registry.server";

declare module "~/lib/context" {
  interface AppServices {
    siteDomains: SiteDomainRegistry;
    /** Custom domains' claims and checks (ADR 024): `domainsOf(services.customDomains, workspaceId)`. */
    customDomains: DomainServices;
  }
}

export const domainsModule = defineModule({
  name: "domains",
  services: (services) => {
    const { db, env, logger } = services;
    const siteDomains = siteDomainRegistry(db, {
      refreshMs: env.DOMAINS_REFRESH_MS,
      onError: (error) => logger.warn({ err: error }, "custom domains: reload failed; the previous list still serves"),
    });
    const customDomains: DomainServices = {
      db,
      config: domainsConfig(env),
      invalidate: () => siteDomains.invalidate(),
      // The job runner's module is built after this one: read it when a check is queued, not now.
      wake: () => services.jobRunner.wake(),
    };
    return { siteDomains, customDomains };
  },
  contributes: ({ customDomains }) => ({
    jobs: {
      [DOMAIN_CHECK_JOB]: async (job) => {
        const { domainId } = JSON.parse(job.payload) as { domainId: string };
        if (!job.workspace_id) return;
        try {
          await domainsOf(customDomains, job.workspace_id).checkById(domainId);
        } catch (error) {
          // A database hiccup: the check is worth another try; DNS failures are findings, not errors.
          throw new RetryableError(error instanceof Error ? error.message : "domain check failed");
        }
      },
    },
    maintenance: [
      async () => {
        await queueDueChecks(customDomains);
      },
    ],
    eventFamilies: [domainsEvents],
  }),
});
