import { defineModule } from "~/lib/module";
import { createApiRateLimit, type ApiRateLimit } from "~/modules/rate-limit/api-rate-limit.server";
import { createOAuthThrottle, type OAuthThrottle } from "~/modules/rate-limit/oauth-throttle.server";

declare module "~/lib/context" {
  interface AppServices {
    /** The token API's limits per OAuth grant (client and user), for access tokens. */
    oauthRateLimit: ApiRateLimit;
    oauthThrottle: OAuthThrottle;
  }
}

export const oauthModule = defineModule({
  name: "oauth",
  services: ({ db, env }, database) => ({
    oauthRateLimit: createApiRateLimit(db, "oauth_rate_windows"),
    oauthThrottle: createOAuthThrottle(database, env),
  }),
});
