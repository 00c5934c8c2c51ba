import { defineModule } from "~/lib/module";
import { purgeExpiredCarts } from "./cart.server";
import { productsEvents } from "./events.server";
import { shippingProviderEvents } from "./shipping-events.server";
import { paymentsEvents } from "./payment-events.server";
import { IMPORT_IMAGE_JOB, importImageHandler } from "./import.server";
import { orderMailHandler } from "./notify.server";
import { shopFarewell } from "./privacy.server";
import { ORDER_MAIL_JOB, expireUnpaidOrders } from "./orders.server";
import { cardRelease } from "./hosted-checkout.server";
import { registerOrderHooks } from "./order-hooks.server";
import { productsSearchSource } from "./search.server";
import { commerceChatTools } from "./chat-tools.server";
import { myOrders } from "./customer-chat-tools.server";

/** The shop: catalogue, carts, checkout, orders (ADR 030). */
export const commerceModule = defineModule({
  name: "commerce",
  contributes: (services) => ({
    eventFamilies: [productsEvents, paymentsEvents, shippingProviderEvents],
    searchSources: [productsSearchSource],
    chatTools: [...commerceChatTools, myOrders],
    workspaceFarewells: [(workspaceId) => shopFarewell(services, workspaceId)],
    jobs: { [ORDER_MAIL_JOB]: orderMailHandler(services), [IMPORT_IMAGE_JOB]: importImageHandler(services) },
    maintenance: [
      // An unpaid order past its hold gives its stock back (a card order's checkout expired at its provider
      // first); the e-mail links to the deployment's address.
      () => {
        const origin = services.env.PUBLIC_URL ?? `http://localhost:${services.env.PORT}`;
        return expireUnpaidOrders(services.db, origin, cardRelease(services, origin));
      },
      () => purgeExpiredCarts(services.db),
    ],
  }),
  start: (_services, contributions) => registerOrderHooks(contributions.flatMap((c) => c.orderHooks ?? [])),
});
