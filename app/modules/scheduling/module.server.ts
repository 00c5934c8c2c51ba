import { defineModule } from "~/lib/module";
import { expireBookingHolds } from "./bookings.server";

/** Scheduling: services, hosts' hours, bookings (ADR 036). */
export const schedulingModule = defineModule({
  name: "scheduling",
  contributes: (services) => ({
    // A hold past its time frees its slot at once (availability reads the time); the sweep records it as expired.
    maintenance: [
      async () => {
        await expireBookingHolds(services.db, services.env.PUBLIC_URL ?? `http://localhost:${services.env.PORT}`);
      },
    ],
  }),
});
