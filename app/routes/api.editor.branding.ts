// GET /api/editor/branding — the selected workspace's branding, its images and the contrast report (viewer).
// PUT /api/editor/branding — save the whole branding (admin): the same `brandingOf(...).save` as the console.
import { slugBase } from "~/lib/link-base";
import { readJson } from "~/lib/http.server";
import { apiRoute } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { mediaJson } from "~/modules/files/api.server";
import { BrandingInput, brandingOf, brandingView } from "~/modules/sites/branding.server";
import { themeHref } from "~/modules/sites/theme.server";

const NO_STORE = { "Cache-Control": "no-store" };

async function view(context: Parameters<typeof requireWorkspace>[1], workspace: { id: string; slug: string }) {
  const brand = brandingOf(context.services.db, workspace.id);
  const branding = await brand.get();
  const images = await brand.images(branding);
  const json = (item: (typeof images)["logo"]) => (item ? mediaJson(workspace.slug, item) : null);
  return {
    ...brandingView(branding),
    images: { logo: json(images.logo), favicon: json(images.favicon), socialImage: json(images.socialImage) },
    themeHref: themeHref(slugBase(workspace.slug), branding),
  };
}

export const loader = apiRoute({
  caller: "operator",
  internal: true,
  GET: {
    summary: "The workspace's branding",
    handle: async ({ request, context }) => {
      const { workspace } = await requireWorkspace(request, context, "viewer", "api");
      return Response.json(await view(context, workspace), { headers: NO_STORE });
    },
  },
  PUT: {
    summary: "Save the workspace's branding",
    errors: [400],
    handle: async ({ request, context }) => {
      const { workspace, session } = await requireWorkspace(request, context, "admin", "api");
      const input = await readJson(request, BrandingInput, context);
      await brandingOf(context.services.db, workspace.id).save(session.user.id, input);
      return Response.json(await view(context, workspace), { headers: NO_STORE });
    },
  },
});

export const action = loader;
