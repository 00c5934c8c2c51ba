import { defineModule } from "~/lib/module";
import { deploymentHosts, type DeploymentHosts } from "./hosts.server";

declare module "~/lib/context" {
  interface AppServices {
    hosts: DeploymentHosts;
  }
}

export const hostsModule = defineModule({
  name: "hosts",
  // `services.siteDomains` (the domains module, built after this one) is read per request, when it exists.
  services: (services) => ({
    hosts: deploymentHosts(
      services.env,
      undefined,
      async (hostname) => (await services.siteDomains.siteOfHost(hostname)) !== null,
    ),
  }),
  start: ({ env, logger }) => {
    if (env.production && !env.PUBLIC_URL) {
      logger.warn(
        "PUBLIC_URL is not set: this server answers only for localhost and its listening address, and refuses " +
          "every other host name with 421; set PUBLIC_URL to the public https:// origin",
      );
    }
  },
});
