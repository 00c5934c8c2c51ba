/**
 * DESIGN rule 2 for the site's branding, business profile and brand import: built for workspace A, each reads
 * none of B's rows and changes none of them — and a file of B's cannot become A's logo.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { brandImportOf } from "~/modules/sites/brand-import.server";
import { brandingOf, brandingFileUsage, DEFAULT_BRANDING } from "~/modules/sites/branding.server";
import { DEFAULT_PROFILE, profileOf } from "~/modules/sites/profile.server";
import type { AppServices } from "~/lib/context";
import { twoTenants, type Fixture } from "./fixture";

let f: Fixture;
const notFoundInLibrary = "That file is not in this workspace's media library";

beforeAll(async () => {
  f = await twoTenants();
});
afterAll(() => f.close());

const BRANDING = {
  colors: { brand: "#123456", accent: "#f2c14e", background: "#ffffff", text: "#111111" },
  headingFont: "fraunces",
  bodyFont: "inter",
  corners: "soft",
};

async function fileOf(workspaceId: string): Promise<string> {
  const id = `file-${Math.random().toString(36).slice(2)}`;
  const at = isoNow();
  await f.db
    .insertInto("files")
    .values({
      id,
      workspace_id: workspaceId,
      sha256: "0".repeat(64),
      content_type: "image/png",
      byte_size: 10,
      width: 10,
      height: 10,
      filename: "logo.png",
      alt: "",
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

describe("brandingOf, built for workspace A", () => {
  it("does not read workspace B's branding, and saving A's leaves B's row as it was", async () => {
    await brandingOf(f.db, f.b.workspace.id).save(f.b.user.id, {
      ...BRANDING,
      colors: { ...BRANDING.colors, brand: "#abcdef" },
    });
    expect(await brandingOf(f.db, f.a.workspace.id).get()).toEqual(DEFAULT_BRANDING);
    const before = await f.rowsOf("site_branding", "workspace_id", f.b.workspace.id);
    await brandingOf(f.db, f.a.workspace.id).save(f.a.user.id, BRANDING);
    expect(await f.rowsOf("site_branding", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect((await brandingOf(f.db, f.b.workspace.id).get()).colors.brand).toBe("#abcdef");
  });

  it("refuses workspace B's file as A's logo, and does not see B's logo among its own uses", async () => {
    const theirs = await fileOf(f.b.workspace.id);
    await expect(
      brandingOf(f.db, f.a.workspace.id).save(f.a.user.id, { ...BRANDING, logoId: theirs }),
    ).rejects.toMatchObject({
      kind: "invalid",
      detail: { issues: [{ field: "logoId", message: notFoundInLibrary }] },
    });
    await brandingOf(f.db, f.b.workspace.id).save(f.b.user.id, { ...BRANDING, logoId: theirs });
    expect(await brandingFileUsage(f.db, f.a.workspace.id, theirs)).toEqual([]);
    expect(await brandingFileUsage(f.db, f.b.workspace.id, theirs)).toEqual([
      { label: "Branding: logo", href: "/website/branding" },
    ]);
    expect((await brandingOf(f.db, f.a.workspace.id).images()).logo).toBeNull();
  });
});

describe("profileOf, built for workspace A", () => {
  it("does not read workspace B's profile, and saving A's leaves B's row as it was", async () => {
    await profileOf(f.db, f.b.workspace.id).save(f.b.user.id, {
      timeZone: "Europe/Paris",
      currency: "EUR",
      phone: "+33 1 00 00 00 00",
      hours: {},
      exceptions: [{ date: "2030-01-01", hours: [], note: "B's holiday" }],
    });
    expect(await profileOf(f.db, f.a.workspace.id).get()).toEqual(DEFAULT_PROFILE);
    const before = await f.rowsOf("site_profiles", "workspace_id", f.b.workspace.id);
    const a = profileOf(f.db, f.a.workspace.id);
    await a.save(f.a.user.id, { timeZone: "UTC", currency: "USD", hours: {} });
    await a.addException(f.a.user.id, { date: "2030-01-02", hours: [], note: "A's" });
    await a.removeException(f.a.user.id, "2030-01-01");
    expect(await f.rowsOf("site_profiles", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect((await profileOf(f.db, f.b.workspace.id).get()).exceptions).toEqual([
      { date: "2030-01-01", hours: [], note: "B's holiday" },
    ]);
  });
});

describe("brandImportOf, built for workspace A", () => {
  it("does not see workspace B's import, and starting A's leaves B's as it was", async () => {
    const services = {
      db: f.db,
      outbound: {
        requireHttps: false,
        allowPrivateNetworks: false,
        timeoutMs: 1000,
        maxResponseBytes: 1024,
        maxRedirects: 0,
      },
    } as unknown as AppServices;
    await brandImportOf(services, f.b.workspace.id).start(f.b.user.id, { url: "https://b.example.test" });
    expect((await brandImportOf(services, f.a.workspace.id).state()).status).toBe("none");
    const before = await f.rowsOf("site_branding", "workspace_id", f.b.workspace.id);
    await brandImportOf(services, f.a.workspace.id).start(f.a.user.id, { url: "https://a.example.test" });
    expect(await f.rowsOf("site_branding", "workspace_id", f.b.workspace.id)).toEqual(before);
    expect((await brandImportOf(services, f.b.workspace.id).state()).url).toBe("https://b.example.test/");
  });
});
