import { defineModule } from "~/lib/module";
import type { OutboundPolicy } from "./outbound-http.server";

declare module "~/lib/context" {
  interface AppServices {
    /** The policy of every outbound call to a URL an operator typed. */
    outbound: OutboundPolicy;
  }
}

export const outboundModule = defineModule({
  name: "outbound",
  services: ({ env, logger }) => {
    if (env.OUTBOUND_ALLOW_PRIVATE && env.production) {
      logger.warn("OUTBOUND_ALLOW_PRIVATE=true lets SOPs reach this server's private network");
    }
    return {
      outbound: {
        allowPrivateNetworks: env.OUTBOUND_ALLOW_PRIVATE,
        requireHttps: env.production,
        timeoutMs: env.OUTBOUND_TIMEOUT_MS,
        maxResponseBytes: env.OUTBOUND_MAX_RESPONSE_BYTES,
        maxRedirects: 3,
      },
    };
  },
});
