import { defineModule } from "~/lib/module";
import { expireBookingHolds } from "./bookings.server";
import { bookingOrderHooks } from "./payments.server";
import { bookingsEvents } from "./events.server";
import { purgePastWaitlist } from "./waitlist.server";
import { servicesSearchSource } from "./search.server";
import { schedulingChatTools } from "./chat-tools.server";
import { myBookings } from "./customer-chat-tools.server";
import { BOOKING_MAIL_JOB, BOOKING_REMINDER_JOB, bookingMailHandler, bookingReminderHandler } from "./notify.server";

/** Scheduling: services, hosts' hours, bookings (ADR 036). */
export const schedulingModule = defineModule({
  name: "scheduling",
  contributes: (services) => ({
    // Deposits and balances are shop orders: paying one confirms its booking, releasing one frees the slot.
    orderHooks: [bookingOrderHooks],
    eventFamilies: [bookingsEvents],
    searchSources: [servicesSearchSource],
    chatTools: [...schedulingChatTools, myBookings],
    jobs: {
      [BOOKING_MAIL_JOB]: bookingMailHandler(services),
      [BOOKING_REMINDER_JOB]: bookingReminderHandler(services),
    },
    // A hold past its time frees its slot at once (availability reads the time); the sweep records it as expired.
    maintenance: [
      async () => {
        await expireBookingHolds(services.db, services.env.PUBLIC_URL ?? `http://localhost:${services.env.PORT}`);
      },
      () => purgePastWaitlist(services.db),
    ],
  }),
});
