import { defineModule } from "~/lib/module";
import { purgeExpiredSignups } from "~/modules/accounts/signups.server";
import { purgeExpiredInvitations } from "~/modules/tenancy/invitations.server";
import { createBearerFailures, type BearerFailures } from "~/modules/rate-limit/bearer-failures.server";
import { createAuthThrottle, type AuthThrottle } from "~/modules/rate-limit/auth-throttle.server";
import { purgeExpiredKnownAddresses } from "./known-addresses.server";

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
  // Accounts and tenancy have no module of their own: the e-mailed links they keep expire here, beside the
  // addresses sign-in recognises.
  contributes: ({ db }) => ({
    maintenance: [
      () => purgeExpiredSignups(db),
      () => purgeExpiredInvitations(db),
      () => purgeExpiredKnownAddresses(db),
    ],
  }),
});
