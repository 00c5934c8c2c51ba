import { defineModule } from "~/lib/module";
import { purgeExpiredCarts } from "./cart.server";
import { productsEvents } from "./events.server";
import { IMPORT_IMAGE_JOB, importImageHandler } from "./import.server";
import { orderMailHandler } from "./notify.server";
import { ORDER_MAIL_JOB, expireUnpaidOrders } from "./orders.server";

/** The shop: catalogue, carts, checkout, orders (ADR 030). */
export const commerceModule = defineModule({
  name: "commerce",
  contributes: (services) => ({
    eventFamilies: [productsEvents],
    jobs: { [ORDER_MAIL_JOB]: orderMailHandler(services), [IMPORT_IMAGE_JOB]: importImageHandler(services) },
    maintenance: [
      // An unpaid order past its hold gives its stock back; the e-mail links to the deployment's address.
      () => expireUnpaidOrders(services.db, services.env.PUBLIC_URL ?? `http://localhost:${services.env.PORT}`),
      () => purgeExpiredCarts(services.db),
    ],
  }),
});
