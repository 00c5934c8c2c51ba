/**
 * The media event family (`/api/webhooks/media`, ADR 027): alt text changed or a file deleted, through the
 * media library's own functions (`filesOf(...).setAlt` / `.remove`), which purge what shows the file.
 */
import { z } from "zod";
import { defineEventFamily, eventEnvelope } from "~/modules/events/family";
import { AltText, filesOf } from "./files.server";

const fileRef = z.string().min(1).max(64);
const MediaEvent = z.discriminatedUnion("type", [
  eventEnvelope("media.updated", z.object({ fileId: fileRef, alt: AltText })),
  eventEnvelope("media.deleted", z.object({ fileId: fileRef })),
]);

export const mediaEvents = defineEventFamily({
  family: "media",
  schema: MediaEvent,
  tags: ["media"],
  describe: {
    summary: "Media described (alt text) or deleted",
    description:
      "`media.updated` sets a file's alt text; `media.deleted` deletes the file (pages and branding that showed it " +
      "stop showing it). An unknown file id is refused with 404 and changes nothing.",
    example: {
      type: "media.updated",
      workspace: "01JB6Z0000000000000000000",
      data: { fileId: "01JB71000000000000000000", alt: "The shop front at dawn" },
    },
  },
  async apply(services, workspace, event) {
    const files = filesOf(services, workspace.id);
    if (event.type === "media.updated") await files.setAlt(event.data.fileId, event.data.alt);
    else await files.remove(event.data.fileId);
  },
});
