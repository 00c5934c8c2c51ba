import type { MenuItemConstructorOptions } from "electron";
import { describe, expect, it, vi } from "vitest";
import { buildMenuTemplate, type MenuActions } from "../src/main/menu";

const actions = (): MenuActions => ({
  switchDeployment: vi.fn(),
  openInBrowser: vi.fn(),
  reload: vi.fn(),
  back: vi.fn(),
  forward: vi.fn(),
});

const items = (template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
  template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
const byId = (template: MenuItemConstructorOptions[], id: string) => items(template).find((item) => item.id === id);
const roles = (template: MenuItemConstructorOptions[]) =>
  items(template).flatMap((item) => (item.role ? [item.role] : []));

describe("application menu", () => {
  it("has reload, back, forward, zoom, switch deployment and open in browser, each doing its action", () => {
    const act = actions();
    const template = buildMenuTemplate({ appName: "Atrium", platform: "linux", isPackaged: true, actions: act });
    for (const [id, action] of [
      ["switch-deployment", act.switchDeployment],
      ["open-in-browser", act.openInBrowser],
      ["reload", act.reload],
      ["back", act.back],
      ["forward", act.forward],
    ] as const) {
      const item = byId(template, id);
      expect(item, id).toBeDefined();
      (item!.click as () => void)();
      expect(action).toHaveBeenCalledTimes(1);
    }
    expect(roles(template)).toEqual(expect.arrayContaining(["zoomIn", "zoomOut", "resetZoom", "editMenu", "quit"]));
    expect(byId(template, "back")!.accelerator).toBe("Alt+Left");
    expect(byId(template, "switch-deployment")!.accelerator).toBe("CmdOrCtrl+Shift+O");
  });

  it("offers developer tools only when running from source", () => {
    const packaged = buildMenuTemplate({ appName: "Atrium", platform: "win32", isPackaged: true, actions: actions() });
    const source = buildMenuTemplate({ appName: "Atrium", platform: "win32", isPackaged: false, actions: actions() });
    expect(roles(packaged)).not.toContain("toggleDevTools");
    expect(roles(source)).toContain("toggleDevTools");
  });

  it("follows macOS conventions there: an app menu first, Cmd+[ for back, Close instead of Quit in File", () => {
    const template = buildMenuTemplate({ appName: "Atrium", platform: "darwin", isPackaged: true, actions: actions() });
    expect(template[0]!.label).toBe("Atrium");
    expect(roles([template[0]!])).toEqual(expect.arrayContaining(["about", "quit"]));
    expect(byId(template, "back")!.accelerator).toBe("Cmd+[");
    expect(roles([template[1]!])).toEqual(["close"]);
  });
});
