/**
 * OWASP's XSS filter-evasion vectors (tests/fixtures/xss) against the website's Markdown and the page save
 * path (ADR 017): through `renderMarkdown`, and through the editor API into a published page read by a
 * visitor. No vector may leave executable markup: no script or embedding element, no event handler or style
 * attribute, no address with a scheme other than http(s), mailto or tel.
 */
import { readFileSync } from "node:fs";
import { load, type CheerioAPI } from "cheerio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "~/modules/sites/markdown.server";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

const VECTORS = JSON.parse(
  readFileSync(new URL("../fixtures/xss/owasp-filter-evasion.json", import.meta.url), "utf8"),
) as string[];

/** What rich text may contain: the sanitiser's allowlist (app/modules/sites/markdown.server.ts). */
const RICH_TEXT_TAGS = new Set(
  "h2 h3 h4 p br hr strong em s code pre blockquote ul ol li a table thead tbody tr th td".split(" "),
);
const RICH_TEXT_ATTRIBUTES: Record<string, string[]> = { a: ["href", "title", "rel"], ol: ["start"] };
const NEVER = "script iframe frame frameset object embed applet style link meta base svg math xml bgsound".split(" ");
const URL_ATTRIBUTES = ["href", "src", "action", "formaction", "background", "data", "dynsrc", "lowsrc", "poster"];

/** The scheme a browser would see: entities already decoded by the parser, control characters and spaces dropped. */
function schemeOf(value: string): string | null {
  // eslint-disable-next-line no-control-regex
  const stripped = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, "").toLowerCase();
  return /^([a-z][a-z0-9+.-]*):/.exec(stripped)?.[1] ?? null;
}

function unsafeIn($: CheerioAPI, root: string, allowlist: boolean): string[] {
  const problems: string[] = [];
  $(root)
    .find("*")
    .each((_, element) => {
      if (element.type !== "tag") return;
      const tag = element.tagName.toLowerCase();
      if (NEVER.includes(tag)) problems.push(`<${tag}>`);
      if (allowlist && !RICH_TEXT_TAGS.has(tag)) problems.push(`<${tag}> outside the allowlist`);
      for (const [name, value] of Object.entries(element.attribs)) {
        const attribute = name.toLowerCase();
        if (attribute.startsWith("on")) problems.push(`${tag}[${attribute}]`);
        if (attribute === "style") problems.push(`${tag}[style]`);
        if (allowlist && !(RICH_TEXT_ATTRIBUTES[tag] ?? []).includes(attribute))
          problems.push(`${tag}[${attribute}] outside the allowlist`);
        const addresses = attribute === "srcset" ? value.split(",").map((s) => s.trim().split(/\s+/)[0] ?? "") : [];
        if (URL_ATTRIBUTES.includes(attribute)) addresses.push(value);
        for (const address of addresses) {
          // The head's empty icon of a site without a favicon (app/site/chrome.ts): no content to carry anything.
          if (tag === "link" && element.attribs.rel === "icon" && address === "data:,") continue;
          const scheme = schemeOf(address);
          if (scheme && !["http", "https", "mailto", "tel"].includes(scheme))
            problems.push(`${tag}[${attribute}=${address}]`);
        }
      }
    });
  return problems;
}

describe("renderMarkdown against every vector", () => {
  it(`has ${VECTORS.length} vectors to run`, () => {
    expect(VECTORS.length).toBeGreaterThan(100);
  });

  it.each(VECTORS.map((v, i) => [i, v] as const))("vector %i leaves no executable markup", (_, vector) => {
    const html = renderMarkdown(vector);
    const $ = load(`<div id="root">${html}</div>`);
    expect(unsafeIn($, "#root", true)).toEqual([]);
  });
});

describe("the page save path against every vector", () => {
  let server: TestServer;
  let owner: Client;
  const SITE = `xss-${Math.random().toString(36).slice(2, 7)}`;
  const origin = () => new URL(server.url).origin;

  beforeAll(async () => {
    server = await startServer();
    owner = (await signUp(server.url)).client;
    await createWorkspace(owner, "XSS Bakery", SITE);
    // The first page becomes the home page (at /{site}); the vectors' pages come after it.
    expect((await api("POST", "/api/editor/pages", { title: "Home", slug: "home" })).status).toBe(201);
  });
  afterAll(() => server.close());

  async function api(method: string, path: string, body?: unknown) {
    const res = await owner.request(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { origin: origin(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  const CHUNK = 20;
  const chunks = Array.from({ length: Math.ceil(VECTORS.length / CHUNK) }, (_, i) =>
    VECTORS.slice(i * CHUNK, (i + 1) * CHUNK),
  );

  it.each(chunks.map((c, i) => [i, c] as const))(
    "vectors of chunk %i, saved as text, Markdown, questions and titles, publish to a safe page",
    async (index, vectors) => {
      const first = vectors[0]!;
      const created = await api("POST", "/api/editor/pages", {
        title: first.trim().slice(0, 120) || "x",
        slug: `chunk-${index}`,
        description: first.slice(0, 300),
        blocks: [
          { type: "hero", heading: first.trim().slice(0, 120) || "x", text: first.slice(0, 400) },
          ...vectors.map((markdown) => ({ type: "richText", markdown })),
          {
            type: "faq",
            heading: first.trim().slice(0, 120),
            items: vectors.map((v) => ({ question: v.trim().slice(0, 200) || "x", answer: v })),
          },
          { type: "contactForm", heading: first.trim().slice(0, 120), intro: first.slice(0, 400) },
        ],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await api("POST", `/api/editor/pages/${created.body.id as string}/publish`)).status).toBe(200);

      const res = await new Client(server.url).get(`/${SITE}/chunk-${index}`);
      expect(res.status).toBe(200);
      const $ = load(await res.text());
      // Inside the page's blocks: nothing executable, whatever the operator typed.
      expect($(".page-blocks").length).toBe(1);
      expect(unsafeIn($, ".page-blocks", false)).toEqual([]);
      // In the whole document the only scripts are structured data, and each is still the JSON it was.
      $("script").each((_, script) => {
        expect($(script).attr("type")).toBe("application/ld+json");
        expect(() => JSON.parse($(script).text()) as unknown).not.toThrow();
      });
      // The head's tags (title, description, Open Graph) carry the vectors as attribute text only.
      const inHead = unsafeIn($, "head", false).filter((p) => !/^<(script|link|meta)>$/.test(p));
      expect(inHead).toEqual([]);
    },
  );

  it.each(VECTORS.map((v, i) => [i, v] as const))(
    "vector %i as a button's address is refused or harmless",
    async (i, vector) => {
      const page = await api("POST", "/api/editor/pages", {
        title: `Button ${i}`,
        slug: `button-${i}`,
        blocks: [{ type: "cta", heading: "Go", label: "Go", href: vector.slice(0, 2000) }],
      });
      if (page.status === 400) {
        expect(page.body).toMatchObject({ statusCode: 400, issues: [{ field: "blocks.0.href" }] });
        return;
      }
      expect(page.status).toBe(201);
      await api("POST", `/api/editor/pages/${page.body.id as string}/publish`);
      const $ = load(await (await new Client(server.url).get(`/${SITE}/button-${i}`)).text());
      expect(unsafeIn($, ".page-blocks", false)).toEqual([]);
    },
  );
});
