import { defineModule } from "~/lib/module";
import { createApiRateLimit, type ApiRateLimit } from "./api-rate-limit.server";

declare module "~/lib/context" {
  interface AppServices {
    /** Per-key limits of the token API. */
    apiRateLimit: ApiRateLimit;
  }
}

export const rateLimitModule = defineModule({
  name: "rate-limit",
  services: ({ db }) => ({ apiRateLimit: createApiRateLimit(db) }),
});
