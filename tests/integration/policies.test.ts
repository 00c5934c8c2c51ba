/**
 * A site's policies: written in the console (editors), shown at /{site}/policies/{kind} once published and not
 * before, listed at /{site}/policies and in the footer's links; Markdown that would not show as meant is
 * refused next to its field and changes nothing; another workspace's policies are not this one's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { policiesOf, policyLinks, seedDemoPolicies } from "~/modules/sites/policies.server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

let sites = 0;
async function site() {
  sites += 1;
  const slug = `policies-${process.pid}-${sites}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `Harbor ${sites}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { client, slug, workspaceId: id, name: `Harbor ${sites}` };
}

const visitor = () => new Client(server.url);
const save = (client: Client, kind: string, fields: Record<string, string>) =>
  client.post(`/website/policies/${kind}`, { intent: "save", ...fields });

describe("writing and publishing a policy", () => {
  it("offers a template with the business's name, then shows the saved policy at the next public request", async () => {
    const { client, slug, name } = await site();
    const editor = await (await client.get("/website/policies/privacy")).text();
    expect(editor).toContain("We have started you off with a template");
    expect(editor).toContain(`${name} respects your privacy.`);
    expect((await visitor().get(`/${slug}/policies/privacy`)).status).toBe(404);

    const saved = await save(client, "privacy", {
      title: "Privacy policy",
      markdown: "## What we keep\n\nYour **e-mail address**, to [answer you](https://example.com/why).",
      published: "on",
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Saved and published on your site.");

    const page = await visitor().get(`/${slug}/policies/privacy`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<h1>Privacy policy</h1>");
    expect(html).toContain("<h2>What we keep</h2>");
    expect(html).toContain('<a href="https://example.com/why" rel="noopener noreferrer">answer you</a>');
    expect(html).toContain(`<link rel="canonical" href="${server.url}/${slug}/policies/privacy"/>`);
    expect(html).toContain('<meta name="description" content="Your e-mail address, to answer you."/>');

    // Edited: the next request shows the change.
    await save(client, "privacy", { title: "Privacy", markdown: "We keep nothing.", published: "on" });
    expect(await (await visitor().get(`/${slug}/policies/privacy`)).text()).toContain("We keep nothing.");

    const index = await (await visitor().get(`/${slug}/policies`)).text();
    expect(index).toContain(`href="/${slug}/policies/privacy"`);
    // The contact form links to it beside its button.
    expect(await (await visitor().get(`/${slug}/contact`)).text()).toContain(
      `<a href="/${slug}/policies/privacy">Privacy policy</a>`,
    );
    const list = await (await client.get("/website/policies")).text();
    expect(list).toMatch(/Privacy<span class="status-tag published">Published/);
  });

  it("keeps a draft off the site and out of the footer's links until it is published", async () => {
    const { client, slug, workspaceId } = await site();
    await save(client, "refund", { title: "Refunds", markdown: "Within 14 days.", published: "" });
    expect((await visitor().get(`/${slug}/policies/refund`)).status).toBe(404);
    expect(await (await visitor().get(`/${slug}/policies`)).text()).not.toContain("Refunds");
    expect(await policyLinks(server.db, workspaceId, `/${slug}`)).toEqual([]);

    await save(client, "refund", { title: "Refunds", markdown: "Within 14 days.", published: "on" });
    expect((await visitor().get(`/${slug}/policies/refund`)).status).toBe(200);
    expect(await policyLinks(server.db, workspaceId, `/${slug}`)).toEqual([
      { label: "Refunds", href: `/${slug}/policies/refund` },
    ]);

    expect((await client.post("/website/policies/refund", { intent: "unpublish" })).status).toBe(200);
    expect((await visitor().get(`/${slug}/policies/refund`)).status).toBe(404);
    const deleted = await client.post("/website/policies/refund", { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(await policiesOf(server.db, workspaceId).get("refund")).toBeUndefined();
  });

  it.each([
    ["<script>alert(1)</script>", "Remove the HTML"],
    ["Click [here](javascript:alert(1))", "Links must start with"],
    ["<img src=x onerror=alert(1)>", "Remove the HTML"],
    ["", "Write the policy"],
  ])("refuses %j next to the text field and changes nothing", async (markdown, message) => {
    const { client, slug } = await site();
    await save(client, "terms", { title: "Terms", markdown: "The old terms.", published: "on" });
    const refused = await save(client, "terms", { title: "Terms", markdown, published: "on" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toMatch(new RegExp(`id="field-markdown-error"[^>]*>${message}`));
    // The refused text comes back in the field for correction, as text.
    expect(html).not.toContain("<script>alert");
    if (markdown) expect(html).toContain(markdown.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
    expect(await (await visitor().get(`/${slug}/policies/terms`)).text()).toContain("The old terms.");
  });

  it("answers 404 for a policy kind that does not exist, in the console and on the site", async () => {
    const { client, slug } = await site();
    expect((await client.get("/website/policies/cookies")).status).toBe(404);
    expect((await visitor().get(`/${slug}/policies/cookies`)).status).toBe(404);
  });
});

describe("roles and workspaces", () => {
  it("lets a viewer read the policies but not change them", async () => {
    const owner = await site();
    await save(owner.client, "privacy", { title: "Privacy", markdown: "Kept.", published: "on" });
    const viewer = await signUp(server.url, uniqueEmail("viewer"));
    await addMember(server.url, owner.client, viewer, "viewer");
    const page = await (await viewer.client.get("/website/policies/privacy")).text();
    expect(page).toContain("You have viewer access");
    expect(
      (await save(viewer.client, "privacy", { title: "Privacy", markdown: "Changed.", published: "on" })).status,
    ).toBe(403);
    expect((await viewer.client.post("/website/policies/privacy", { intent: "delete" })).status).toBe(403);
    expect(await (await visitor().get(`/${owner.slug}/policies/privacy`)).text()).toContain("Kept.");
  });

  it("keeps each workspace's policies its own", async () => {
    const a = await site();
    const b = await site();
    await save(a.client, "shipping", { title: "Shipping A", markdown: "Only A ships.", published: "on" });
    expect((await visitor().get(`/${b.slug}/policies/shipping`)).status).toBe(404);
    expect(await (await b.client.get("/website/policies/shipping")).text()).not.toContain("Only A ships.");
    await save(b.client, "shipping", { title: "Shipping B", markdown: "B ships.", published: "on" });
    expect(await (await visitor().get(`/${a.slug}/policies/shipping`)).text()).toContain("Only A ships.");
    expect((await policiesOf(server.db, a.workspaceId).get("shipping"))?.title).toBe("Shipping A");
  });
});

describe("seedDemoPolicies", () => {
  it("publishes privacy, terms and refund policies in the business's name, once", async () => {
    const { slug, workspaceId, name } = await site();
    await seedDemoPolicies(server.db, workspaceId);
    await seedDemoPolicies(server.db, workspaceId);
    expect((await policyLinks(server.db, workspaceId, `/${slug}`)).map((l) => l.label)).toEqual([
      "Privacy policy",
      "Terms of service",
      "Refund policy",
    ]);
    expect(await (await visitor().get(`/${slug}/policies/refund`)).text()).toContain(`what you buy from ${name}`);
  });
});
