import { defineModule } from "~/lib/module";
import { purgeExpiredChallenges } from "./challenges.server";
import { purgeIdempotencyKeys } from "./idempotency.server";
import { purgeExpiredManageTokens } from "./manage-tokens.server";
import { ticketMailHandler } from "./notify.server";
import { purgeExpiredCustomerSessions } from "./sessions.server";
import { TICKET_MAIL_JOB } from "./tickets.server";
import { customersChatTools } from "./chat-tools.server";

/** Customers of the workspaces' sites: identity, sessions, manage links, tickets, privacy (ADR 029). */
export const customersModule = defineModule({
  name: "customers",
  contributes: (services) => ({
    jobs: { [TICKET_MAIL_JOB]: ticketMailHandler(services) },
    chatTools: customersChatTools,
    maintenance: [
      () => purgeExpiredChallenges(services.db),
      () => purgeExpiredCustomerSessions(services.db),
      () => purgeExpiredManageTokens(services.db),
      () => purgeIdempotencyKeys(services.db),
    ],
  }),
});
