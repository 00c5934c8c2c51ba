/**
 * The domains event family (`/api/webhooks/domains`, ADR 027): a DNS change was made for a claimed domain, so
 * check it now (the console's "Check now", `domainsOf(...).check`) rather than at its next scheduled check; the
 * check refreshes the host registry when what serves changes.
 */
import { z } from "zod";
import { defineEventFamily, eventEnvelope } from "~/modules/events/family";
import { domainsOf } from "./domains.server";

const DomainChanged = eventEnvelope("domain.changed", z.object({ hostname: z.string().min(1).max(300) }));

export const domainsEvents = defineEventFamily({
  family: "domains",
  schema: DomainChanged,
  tags: ["domains"],
  describe: {
    summary: "A custom domain's DNS changed: check it now",
    description:
      "Runs the domain's verification now (TXT and routing records) and applies the result, as the console's " +
      "Check now. A host name the workspace has not claimed is refused with 404.",
    example: { type: "domain.changed", workspace: "01JB6Z0000000000000000000", data: { hostname: "shop.example.com" } },
  },
  async apply({ customDomains }, workspace, event) {
    await domainsOf(customDomains, workspace.id).check(event.data.hostname);
  },
});
