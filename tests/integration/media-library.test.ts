/**
 * The media library page (/website/media) through real HTTP, as a browser without JavaScript uses it:
 * multipart form posts, errors beside the file field, the details of one file, roles, and another
 * workspace's file answering 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, addMember, createWorkspace, signUp, uniqueEmail } from "../helpers/client";
import { png, upload } from "../helpers/files";
import { startServer, type TestServer } from "../helpers/server";
import { tempDir, type TempDir } from "../helpers/temp";

let server: TestServer;
let dir: TempDir;
let owner: Client;
const slug = "corner-bakery";

beforeAll(async () => {
  dir = tempDir("media");
  server = await startServer({ FILES_DIR: dir.path, FILES_MAX_BYTES: String(300 * 1024) });
  ({ client: owner } = await signUp(server.url));
  await createWorkspace(owner, "Corner Bakery", slug);
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

const idFromLocation = (res: Response) =>
  new URL(res.headers.get("location") ?? "", server.url).searchParams.get("file");

describe("the media library", () => {
  it("starts empty, saying what to do", async () => {
    const res = await owner.get("/website/media");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("No files yet. Upload your logo");
    expect(html).toMatch(/enctype="multipart\/form-data"/i);
  });

  it("uploads, then shows the file to describe; refusals sit beside the file field", async () => {
    const res = await upload(owner, "/website/media", await png(900, 600), "storefront.png", {
      intent: "upload",
      alt: "",
    });
    expect(res.status).toBe(303);
    const id = idFromLocation(res);
    expect(id).toBeTruthy();
    const detail = await (await owner.get(res.headers.get("location")!)).text();
    expect(detail).toContain("Uploaded. Describe the image below");
    expect(detail).toContain("storefront.png");
    expect(detail).toContain("Not used on any page or in your branding yet.");
    expect(detail).toMatch(new RegExp(`/${slug}/media/[a-f0-9]{64}-640\\.webp`));

    const lie = await upload(owner, "/website/media", new TextEncoder().encode("<html>hi</html>"), "fake.jpg", {
      intent: "upload",
    });
    expect(lie.status).toBe(400);
    const html = await lie.text();
    expect(html).toMatch(/id="media-file-error"[^>]*>This file is not an image we can show/);

    const big = await upload(owner, "/website/media", new Uint8Array(301 * 1024), "huge.png", { intent: "upload" });
    expect(big.status).toBe(400);
    expect(await big.text()).toMatch(/id="media-file-error"[^>]*>This file is 301 KB; files may be at most 300 KB/);

    const none = await owner.post("/website/media", { intent: "upload" });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Choose a file to upload");

    const list = await (await owner.get("/website/media")).text();
    expect(list).toContain("1 file");
    expect(list).toContain("No description");
  });

  it("says so when asked for a page past the last, rather than that the library is empty", async () => {
    const html = await (await owner.get("/website/media?page=40")).text();
    expect(html).toContain("There is no page 40 of files: the library has 1 page.");
    expect(html).not.toContain("No files yet.");
  });

  it("answers a damaged multipart form with a message, not an error page", async () => {
    const res = await owner.request("/website/media", {
      method: "POST",
      body: '--xyz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupl',
      headers: {
        "content-type": "multipart/form-data; boundary=xyz",
        origin: new URL(server.url).origin,
        "sec-fetch-site": "same-origin",
      },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The form could not be read");
  });

  it("describes, replaces and deletes a file", async () => {
    const created = await upload(owner, "/website/media", await png(500, 500, [1, 100, 1]), "cake.png", {
      intent: "upload",
      alt: "",
    });
    const id = idFromLocation(created)!;

    const described = await owner.post(`/website/media?file=${id}`, { intent: "alt", fileId: id, alt: "Lemon cake" });
    expect(described.status).toBe(200);
    expect(await described.text()).toContain("Description saved.");
    const tooLong = await owner.post(`/website/media?file=${id}`, { intent: "alt", fileId: id, alt: "x".repeat(301) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("Keep the description under 300 characters");

    const replacement = await png(500, 500, [200, 100, 1]);
    const replaced = await upload(owner, `/website/media?file=${id}`, replacement, "cake-2.png", {
      intent: "replace",
      fileId: id,
    });
    expect(replaced.status).toBe(200);
    const page = await replaced.text();
    expect(page).toContain("File replaced");
    expect(page).toContain("cake-2.png");
    expect(page).toContain("Lemon cake");

    // Deleting is two steps, with or without JavaScript: a bare delete post only leads to the confirmation.
    const asked = await owner.post("/website/media", { intent: "delete", fileId: id });
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toBe(`/website/media?file=${id}&delete=confirm`);
    const confirmation = await (await owner.get(asked.headers.get("location")!)).text();
    expect(confirmation).toContain("Delete “cake-2.png”?");
    expect(confirmation).toMatch(/name="confirm" value="delete"/);
    expect((await owner.get(`/website/media?file=${id}`)).status).toBe(200);

    const deleted = await owner.post("/website/media", { intent: "delete", fileId: id, confirm: "delete" });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/website/media?notice=deleted");
    expect((await owner.get(`/website/media?file=${id}`)).status).toBe(404);
  });

  it("shows viewers the library without forms, refuses their posts, and hides other workspaces' files", async () => {
    const created = await upload(owner, "/website/media", await png(300, 200, [5, 5, 5]), "kept.png", {
      intent: "upload",
    });
    const id = idFromLocation(created)!;
    const viewer = await signUp(server.url, uniqueEmail("viewer"));
    await addMember(server.url, owner, viewer, "viewer");
    const html = await (await viewer.client.get(`/website/media?file=${id}`)).text();
    expect(html).toContain("kept.png");
    expect(html).not.toContain('name="intent" value="upload"');
    expect(html).not.toContain("Delete file");
    const confirmation = await (await viewer.client.get(`/website/media?file=${id}&delete=confirm`)).text();
    expect(confirmation).not.toContain('name="confirm"');
    expect((await viewer.client.post("/website/media", { intent: "delete", fileId: id })).status).toBe(403);
    const confirmed = { intent: "delete", fileId: id, confirm: "delete" };
    expect((await viewer.client.post("/website/media", confirmed)).status).toBe(403);

    const { client: stranger } = await signUp(server.url);
    await createWorkspace(stranger, "Elsewhere", "elsewhere-bakery");
    expect((await stranger.get(`/website/media?file=${id}`)).status).toBe(404);
    expect((await stranger.post("/website/media", { intent: "delete", fileId: id })).status).toBe(404);
    expect((await stranger.post("/website/media", confirmed)).status).toBe(404);
    expect((await stranger.post("/website/media", { intent: "alt", fileId: id, alt: "mine" })).status).toBe(404);
    expect((await owner.get(`/website/media?file=${id}`)).status).toBe(200);
  });
});
