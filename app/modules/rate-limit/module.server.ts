import { defineModule } from "~/lib/module";
import { createApiRateLimit, type ApiRateLimit } from "./api-rate-limit.server";
import { createChatThrottle, type ChatThrottle } from "./chat-throttle.server";
import { createContactThrottle, type ContactThrottle } from "./contact-throttle.server";
import { createCustomerThrottle, type CustomerThrottle } from "./customer-throttle.server";
import { createInviteThrottle, type InviteThrottle } from "./invite-throttle.server";
import { createOgImageThrottle, type OgImageThrottle } from "./og-image-throttle.server";
import { createRoutingTestThrottle, type RoutingTestThrottle } from "./routing-test-throttle.server";
import { createSiteUnlockThrottle, type SiteUnlockThrottle } from "./site-unlock-throttle.server";
import { createWebhookThrottle, type WebhookThrottle } from "./webhook-throttle.server";

declare module "~/lib/context" {
  interface AppServices {
    /** Per-key limits of the token API. */
    apiRateLimit: ApiRateLimit;
    /** Invitations per inviter, workspace and recipient; new workspaces per user. */
    inviteThrottle: InviteThrottle;
    /** Contact-form messages per client address and site. */
    contactThrottle: ContactThrottle;
    /** Customers' sign-in codes per e-mail and address; customer API requests per address and customer. */
    customerThrottle: CustomerThrottle;
    /** Password guesses on a protected site's unlock page, per client address and site. */
    siteUnlockThrottle: SiteUnlockThrottle;
    /** New share images (renders, not cached images) per client address. */
    ogImageThrottle: OgImageThrottle;
    /** Calls of the public /api/routing-test per client address. */
    routingTestThrottle: RoutingTestThrottle;
    /** Events per workspace and family of /api/webhooks/*, before any secret is loaded. */
    webhookThrottle: WebhookThrottle;
    /** The assistant's messages per account and day (by tier), and per site visitor and address. */
    chatThrottle: ChatThrottle;
  }
}

export const rateLimitModule = defineModule({
  name: "rate-limit",
  services: ({ db, env }, database) => ({
    apiRateLimit: createApiRateLimit(db),
    inviteThrottle: createInviteThrottle(database),
    contactThrottle: createContactThrottle(database, env.CONTACT_MESSAGES_PER_ADDRESS_PER_HOUR),
    customerThrottle: createCustomerThrottle(database, env),
    siteUnlockThrottle: createSiteUnlockThrottle(database),
    ogImageThrottle: createOgImageThrottle(database, env.OG_RENDERS_PER_ADDRESS_PER_MINUTE),
    routingTestThrottle: createRoutingTestThrottle(database, env.ROUTING_TESTS_PER_ADDRESS_PER_MINUTE),
    webhookThrottle: createWebhookThrottle(database, env.WEBHOOKS_PER_WORKSPACE_PER_MINUTE),
    chatThrottle: createChatThrottle(database, env),
  }),
});
