// GET /website/branding/preview.css?brand=…&accent=…&background=…&text=…&headingFont=…&bodyFont=…&corners=…
// The branding page's live preview: the theme of the given (unsaved) values, scoped to `.brand-preview`.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { requireWorkspace } from "~/modules/access/operator.server";
import { BrandingInput, brandingOf } from "~/modules/sites/branding.server";
import { previewCss } from "~/modules/sites/theme.server";

export const loader = page("operator", async ({ request, context }: LoaderFunctionArgs) => {
  const { workspace } = await requireWorkspace(request, context, "viewer");
  const saved = await brandingOf(context.services.db, workspace.id).get();
  const q = new URL(request.url).searchParams;
  const pick = <T>(value: T | undefined, fallback: T): T => value ?? fallback;
  const colors = {
    brand: pick(q.get("brand") ?? undefined, saved.colors.brand),
    accent: pick(q.get("accent") ?? undefined, saved.colors.accent),
    background: pick(q.get("background") ?? undefined, saved.colors.background),
    text: pick(q.get("text") ?? undefined, saved.colors.text),
  };
  const parsed = BrandingInput.safeParse({
    colors,
    headingFont: q.get("headingFont") ?? saved.headingFont,
    bodyFont: q.get("bodyFont") ?? saved.bodyFont,
    corners: q.get("corners") ?? saved.corners,
  });
  const branding = parsed.success ? { ...saved, ...parsed.data } : saved;
  return new Response(previewCss(branding), {
    headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "private, max-age=300" },
  });
});
