import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDir, type TempDir } from "../../tests/helpers/temp";
import { openDeploymentsStore, partitionFor } from "../src/main/deployments-store";

let dir: TempDir;
let file: string;
beforeEach(() => {
  dir = tempDir("atrium-desktop-store");
  file = join(dir.path, "deployments.json");
});
afterEach(() => dir.remove());

const added = (store: ReturnType<typeof openDeploymentsStore>, name: string, url: string) => {
  const result = store.add({ name, url, version: "0.1.0" });
  if (!result.ok) throw new Error(result.error);
  return result.value;
};

describe("deployments store", () => {
  it("starts empty, saves a deployment by origin, and a new process reads it back", () => {
    const store = openDeploymentsStore(file);
    expect(store.list()).toEqual([]);
    const local = added(store, "  Local dev ", "http://localhost:3000/settings");
    expect(local).toMatchObject({
      name: "Local dev",
      origin: "http://localhost:3000",
      version: "0.1.0",
      lastOpenedAt: null,
    });

    const reopened = openDeploymentsStore(file);
    expect(reopened.list()).toEqual([local]);
    expect(reopened.get(local.id)).toEqual(local);
    expect(reopened.byName("LOCAL DEV")).toEqual(local);
    // The file holds session partitions' names and window geometry, nothing secret, but it is the operator's.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("lists by name and refuses a duplicate name (any case) or a second entry for the same origin", () => {
    const store = openDeploymentsStore(file);
    added(store, "Zeta", "https://zeta.example.com");
    added(store, "alpha", "https://alpha.example.com");
    expect(store.list().map((d) => d.name)).toEqual(["alpha", "Zeta"]);
    expect(store.add({ name: "ZETA", url: "https://other.example.com", version: null })).toEqual({
      ok: false,
      error: 'A deployment is already named "Zeta".',
    });
    expect(store.add({ name: "Again", url: "https://alpha.example.com/login", version: null })).toEqual({
      ok: false,
      error: 'https://alpha.example.com is already saved as "alpha".',
    });
  });

  it("validates names and addresses with the picker's messages", () => {
    const store = openDeploymentsStore(file);
    expect(store.add({ name: "  ", url: "https://a.example.com", version: null })).toMatchObject({
      ok: false,
      error: "Give the deployment a name.",
    });
    expect(store.add({ name: "x".repeat(61), url: "https://a.example.com", version: null })).toMatchObject({
      ok: false,
    });
    expect(store.add({ name: "bad\u0007name", url: "https://a.example.com", version: null })).toMatchObject({
      ok: false,
      error: "The name cannot contain control characters.",
    });
    expect(store.add({ name: "Office", url: "http://10.0.0.5", version: null })).toMatchObject({ ok: false });
    expect(store.list()).toEqual([]);
  });

  it("renames (keeping the id, so the session partition and its sign-in survive) and refuses a taken name", () => {
    const store = openDeploymentsStore(file);
    const a = added(store, "A", "https://a.example.com");
    added(store, "B", "https://b.example.com");
    const renamed = store.rename(a.id, "Head office");
    expect(renamed).toEqual({ ok: true, value: { ...a, name: "Head office" } });
    expect(partitionFor(a)).toBe(`persist:deployment-${a.id}`);
    expect(store.rename(a.id, "b")).toEqual({ ok: false, error: 'A deployment is already named "B".' });
    expect(store.rename(a.id, "HEAD OFFICE")).toMatchObject({ ok: true });
    expect(store.rename("missing", "X")).toEqual({ ok: false, error: "That deployment is no longer saved." });
  });

  it("removes a deployment with its window state", () => {
    const store = openDeploymentsStore(file);
    const a = added(store, "A", "https://a.example.com");
    store.saveWindowState(a.id, { x: 10, y: 20, width: 900, height: 700, maximized: false });
    expect(store.remove(a.id)).toEqual({ ok: true, value: a });
    expect(store.list()).toEqual([]);
    expect(store.windowState(a.id)).toBeUndefined();
    expect(JSON.parse(readFileSync(file, "utf8")).windows).toEqual({});
    expect(store.remove(a.id)).toMatchObject({ ok: false });
  });

  it("remembers the last deployment opened and each window's geometry", () => {
    const store = openDeploymentsStore(file);
    const a = added(store, "A", "https://a.example.com");
    const b = added(store, "B", "https://b.example.com");
    expect(store.lastOpened()).toBeUndefined();
    store.markOpened(a.id, new Date("2026-11-01T10:00:00Z"));
    store.markOpened(b.id, new Date("2026-11-02T10:00:00Z"));
    store.saveWindowState(b.id, { x: -1200, y: 40, width: 1100, height: 760, maximized: true });
    const reopened = openDeploymentsStore(file);
    expect(reopened.lastOpened()?.id).toBe(b.id);
    expect(reopened.windowState(b.id)).toEqual({ x: -1200, y: 40, width: 1100, height: 760, maximized: true });
    store.saveWindowState("gone", { x: 0, y: 0, width: 800, height: 600, maximized: false });
    expect(openDeploymentsStore(file).windowState("gone")).toBeUndefined();
  });

  it("sets an unreadable file aside instead of crashing or deleting it, and starts empty", () => {
    writeFileSync(file, "{ not json");
    const log = vi.fn();
    const store = openDeploymentsStore(file, log);
    expect(store.list()).toEqual([]);
    const aside = readdirSync(dir.path).find((name) => name.startsWith("deployments.json.unreadable-"));
    expect(aside).toBeDefined();
    expect(readFileSync(join(dir.path, aside!), "utf8")).toBe("{ not json");
    expect(log).toHaveBeenCalledWith(expect.stringContaining("moved to"));
    added(store, "A", "https://a.example.com");
    expect(openDeploymentsStore(file).list()).toHaveLength(1);
  });

  it("writes atomically: no temporary file is left behind", () => {
    const store = openDeploymentsStore(file);
    added(store, "A", "https://a.example.com");
    expect(readdirSync(dir.path)).toEqual(["deployments.json"]);
  });
});
