// GET /api/openapi.json — the integrators' API reference (OpenAPI 3.1), generated from the API routes'
// declarations (app/lib/openapi.server.ts). Not listed in itself: it is where the list is read.
import { apiRoute } from "~/lib/routes.server";
import { openApiDocument, type DeclaredRoute } from "~/lib/openapi.server";
import type { DeclaredHandler } from "~/lib/route-contract";
import { cacheControlFor, resolveOrigin } from "~/modules/hosts/hosts.server";

// Every API route module, flat (`api.x.ts`) or as a route folder (`api.x/route.ts`); Vite resolves the glob at
// build time, so a new route is in the document without being listed anywhere.
const MODULES = import.meta.glob<{ loader?: Partial<DeclaredHandler> }>(["./api.*.ts", "./api.*/route.ts"], {
  eager: true,
});

let document: ReturnType<typeof openApiDocument> | undefined;

export const loader = apiRoute({
  caller: "public",
  internal: true,
  GET: async ({ request, context }) => {
    // Built once per process (the routes cannot change while it runs); only the server's URL varies: the
    // deployment's public origin (app/modules/hosts), never a Host header the client chose.
    document ??= openApiDocument(
      Object.entries(MODULES).flatMap(([file, module]): DeclaredRoute[] =>
        module.loader?.contract ? [{ file, contract: module.loader.contract }] : [],
      ),
      {
        version: context.services.version,
        eventFamilies: context.services.eventFamilies.all().map((f) => ({
          family: f.family,
          summary: f.describe.summary,
          description: f.describe.description,
          schema: f.schema,
          example: f.describe.example,
          tags: f.tags ?? [],
          provider: Boolean(f.secret),
        })),
      },
    );
    const origin = await resolveOrigin(request, context);
    const body = JSON.stringify({ ...document, servers: [{ url: origin.origin }] });
    return new Response(body, {
      headers: { "Content-Type": "application/json", "Cache-Control": cacheControlFor(origin, "public, max-age=300") },
    });
  },
});

export const action = loader;
