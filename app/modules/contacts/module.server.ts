import { defineModule } from "~/lib/module";
import { NOTIFY_JOB } from "./messages.server";
import { notifyHandler } from "./notify.server";

/** Contacts: contact events and the messages of sites' contact forms (their e-mail to the business is a job). */
export const contactsModule = defineModule({
  name: "contacts",
  contributes: ({ db, mailer }) => ({ jobs: { [NOTIFY_JOB]: notifyHandler({ db, mailer }) } }),
});
