import { defineModule } from "~/lib/module";
import { createApiRateLimit, type ApiRateLimit } from "./api-rate-limit.server";
import { createInviteThrottle, type InviteThrottle } from "./invite-throttle.server";

declare module "~/lib/context" {
  interface AppServices {
    /** Per-key limits of the token API. */
    apiRateLimit: ApiRateLimit;
    /** Invitations per inviter, workspace and recipient; new workspaces per user. */
    inviteThrottle: InviteThrottle;
  }
}

export const rateLimitModule = defineModule({
  name: "rate-limit",
  services: ({ db }, database) => ({
    apiRateLimit: createApiRateLimit(db),
    inviteThrottle: createInviteThrottle(database),
  }),
});
