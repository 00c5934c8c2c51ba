/**
 * The website's documents for the content index (ADR 037): each published page as the text its blocks show, each
 * published policy, and the business profile — hours, address, contact — as one document, which the contact page
 * shows. Drafts never reach the index: it serves public answers.
 */
import type { AppServices } from "~/lib/context";
import { cacheTags } from "~/modules/cache/tags";
import type { SearchDocument, SearchSource } from "~/modules/search/index.server";
import { plainText } from "~/modules/search/text";
import type { RenderedBlock } from "./blocks";
import { pageSitePath, publishedPages } from "./pages.server";
import { policiesOf } from "./policies.server";
import { addressLines, rememberedProfile, upcomingExceptions, weeklyHoursLines } from "./profile.server";

function blockText(block: RenderedBlock): string[] {
  switch (block.type) {
    case "hero":
      return [`${block.heading}.`, block.text ?? ""];
    case "richText":
      return [plainText(block.markdown)];
    case "image":
      return [block.caption ?? ""];
    case "cta":
      return [`${block.heading}.`, block.text ?? ""];
    case "faq":
      return [
        block.heading ? `${block.heading}.` : "",
        ...block.items.map((i) => `${i.question} ${plainText(i.answer)}`),
      ];
    case "contactForm":
      return [block.heading ?? "", block.intro ?? ""];
    default:
      return [];
  }
}

/** A sentence needs its full stop: a heading followed by text would otherwise read as one sentence. */
const lines = (parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join("\n");

export const siteSearchSource: SearchSource = {
  kinds: ["page", "policy", "profile"],
  async documents(services: AppServices, workspaceId: string) {
    const { db } = services;
    const [pages, policies, profile, workspace] = await Promise.all([
      publishedPages(db, workspaceId),
      policiesOf(db, workspaceId).published(),
      rememberedProfile(services, workspaceId),
      db.selectFrom("workspaces").select("name").where("id", "=", workspaceId).executeTakeFirstOrThrow(),
    ]);
    const documents: SearchDocument[] = pages.map((page) => ({
      id: `page:${page.id}`,
      kind: "page",
      title: page.content.title,
      text: lines([page.content.description, ...page.content.blocks.flatMap(blockText)]),
      keywords: page.isHome ? `home ${workspace.name}` : page.slug.replace(/-/g, " "),
      path: pageSitePath(page),
    }));
    for (const policy of policies) {
      documents.push({
        id: `policy:${policy.kind}`,
        kind: "policy",
        title: policy.title,
        text: plainText(policy.markdown),
        keywords: `policy ${policy.kind.replace(/-/g, " ")}`,
        path: `/policies/${policy.kind}`,
      });
    }
    const hours = weeklyHoursLines(profile.hours);
    const exceptions = upcomingExceptions(profile, 366);
    const address = addressLines(profile);
    const profileText = lines([
      profile.tagline,
      hours.length ? `Opening hours: ${hours.map((h) => `${h.days}: ${h.hours}`).join("; ")}.` : "",
      ...exceptions.map((e) => `${e.label}${e.note ? ` (${e.note})` : ""}: ${e.hours}.`),
      address.length ? `Address: ${address.join(", ")}.` : "",
      profile.phone ? `Phone: ${profile.phone}.` : "",
      profile.email ? `E-mail: ${profile.email}.` : "",
    ]);
    if (profileText) {
      documents.push({
        id: "profile:contact",
        kind: "profile",
        title: `Visit ${workspace.name}`,
        text: profileText,
        keywords: "opening hours open close closed times address location directions phone email contact visit",
        path: "/contact",
      });
    }
    return {
      documents,
      tags: [
        cacheTags.pages(workspaceId),
        cacheTags.settings(workspaceId),
        ...pages.map((p) => cacheTags.page(workspaceId, p.id)),
      ],
    };
  },
};
