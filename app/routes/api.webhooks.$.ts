// POST /api/webhooks/{family} — event receivers (ADR 027): `branding`, `settings`, `pages`, `media`, `domains`,
// and the families later modules declare (`shipping/provider` has two segments, hence the splat). The workspace
// is named by the Atrium-Workspace header or ?workspace=; the body is signed in Standard Webhooks. 200 with
// `{ eventId, status, duplicate }` once applied (or for a duplicate, which changes nothing).
import { apiRoute } from "~/lib/routes.server";
import { receiveEvent, requireSignedEvent } from "~/modules/events/receiver.server";

export const loader = apiRoute({
  caller: "provider",
  POST: async ({ request, context, params }) => {
    const event = await requireSignedEvent(request, context, params["*"] ?? "");
    const receipt = await receiveEvent(context.services, event);
    return Response.json(receipt, { headers: { "Cache-Control": "no-store" } });
  },
});

export const action = loader;
