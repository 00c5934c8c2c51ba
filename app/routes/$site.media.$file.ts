// GET /{site}/media/{sha256}.{ext} — a file's original bytes; /{site}/media/{sha256}-{width}.webp — a resized
// WebP variant (made on first request and kept). Only files of that site's workspace; addressed by content,
// so every answer is immutable and cached for a year.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { mediaFile } from "~/modules/files/serve.server";
import { mediaGate, privateMedia } from "~/modules/site-access/gate.server";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  context.request.log.callerType = "public";
  // A protected site's files are as closed as its pages (ADR 023): a 302 to its unlock page until unlocked.
  await mediaGate(context, request, params.site ?? "", params.file ?? "");
  const answer = await mediaFile(context.services, params.site ?? "", params.file ?? "", request);
  if (!answer) {
    context.request.log.failure = "missing-data";
    return new Response("Not found", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
    });
  }
  return privateMedia(context, answer);
});
