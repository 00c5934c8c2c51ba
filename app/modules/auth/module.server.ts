import { defineModule } from "~/lib/module";
import { createBearerFailures, type BearerFailures } from "~/modules/rate-limit/bearer-failures.server";
import { createAuthThrottle, type AuthThrottle } from "~/modules/rate-limit/auth-throttle.server";

declare module "~/lib/context" {
  interface AppServices {
    authThrottle: AuthThrottle;
    /** Failed bearer authentications per client address (API_AUTH_FAILURES_PER_MINUTE). */
    authFailures: BearerFailures;
  }
}

export const authModule = defineModule({
  name: "auth",
  services: ({ env }, database) => ({
    authThrottle: createAuthThrottle(database, env),
    authFailures: createBearerFailures(database, env.API_AUTH_FAILURES_PER_MINUTE),
  }),
});
