import { beforeAll, describe, expect, it, vi } from "vitest";
import { CHANNEL_NAMES } from "../src/shared/channel-names";
import type { DesktopApi } from "../src/shared/ipc";
import { electron } from "./fakes/electron";

vi.mock("electron", async () => (await import("./fakes/electron")).electron);

let exposed: Record<string, unknown>;
beforeAll(async () => {
  await import("../src/preload/preload");
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
  const [key, value] = electron.contextBridge.exposeInMainWorld.mock.calls[0]! as unknown as [string, typeof exposed];
  expect(key).toBe("atriumDesktop");
  exposed = value;
});

/** Every leaf of the exposed object, by dotted name. */
function leaves(value: unknown, prefix = ""): Array<[string, unknown]> {
  if (typeof value !== "object" || value === null) return [[prefix, value]];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

describe("preload bridge", () => {
  it("exposes named functions only: no ipcRenderer, no channel-taking send/invoke", () => {
    const entries = leaves(exposed);
    expect(entries.map(([name]) => name).sort()).toEqual([
      "appVersion",
      "deployments.add",
      "deployments.list",
      "deployments.open",
      "deployments.probe",
      "deployments.remove",
      "deployments.rename",
      "notify",
      "pickerNotice",
      "retry",
      "switchDeployment",
    ]);
    for (const [name, value] of entries) expect(typeof value, name).toBe("function");
    expect(Object.values(exposed)).not.toContain(electron.ipcRenderer);
  });

  it("each function invokes its own fixed channel with its arguments", async () => {
    const api = exposed as unknown as DesktopApi;
    await api.notify({ title: "Paid" });
    await api.deployments.remove("abc");
    await api.deployments.add({ name: "Local", url: "http://localhost:3000" });
    await api.appVersion();
    expect(electron.ipcRenderer.invoke.mock.calls).toEqual([
      [CHANNEL_NAMES.notify, { title: "Paid" }],
      [CHANNEL_NAMES.removeDeployment, "abc"],
      [CHANNEL_NAMES.addDeployment, { name: "Local", url: "http://localhost:3000" }],
      [CHANNEL_NAMES.appVersion],
    ]);
  });
});
