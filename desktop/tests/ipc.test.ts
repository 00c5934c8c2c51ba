import type { IpcMainInvokeEvent, WebContents } from "electron";
import { describe, expect, it, vi } from "vitest";
import { isTrustedSender, originOf, registerIpc, type Handlers, type WindowRole } from "../src/main/ipc";
import { CHANNEL_NAMES } from "../src/shared/channel-names";
import { channels } from "../src/shared/ipc";

const CONSOLE = "https://atrium.example.com";

describe("IPC sender checks", () => {
  const PICKER = { kind: "picker" } as const;
  const DEPLOYMENT = { kind: "deployment", origin: CONSOLE } as const;
  const sender = (frameUrl: string | undefined, window: WindowRole, isMainFrame = true) => ({
    frameUrl,
    isMainFrame,
    window,
  });

  it("names the shell by scheme and host (a custom scheme's URL origin is the string 'null')", () => {
    expect(originOf("app://shell/picker.html?x=1")).toBe("app://shell");
    expect(originOf("https://atrium.example.com/settings")).toBe(CONSOLE);
    expect(originOf("file:///etc/passwd")).toBeNull();
    expect(originOf("data:text/html,hi")).toBeNull();
    expect(originOf("nope")).toBeNull();
  });

  it("picker channels answer only the shell's page in the picker window", () => {
    expect(isTrustedSender(sender("app://shell/picker.html", PICKER), "picker")).toBe(true);
    // The offline page is the shell's too, but it lives in a deployment's window: no deployment list there.
    expect(isTrustedSender(sender("app://shell/offline.html", DEPLOYMENT), "picker")).toBe(false);
    expect(isTrustedSender(sender(`${CONSOLE}/settings`, DEPLOYMENT), "picker")).toBe(false);
    expect(isTrustedSender(sender("app://evil/picker.html", PICKER), "picker")).toBe(false);
    expect(isTrustedSender(sender("app://shell/picker.html", undefined), "picker")).toBe(false);
  });

  it("the offline channel answers only the shell's page in a deployment window", () => {
    expect(isTrustedSender(sender("app://shell/offline.html", DEPLOYMENT), "offline")).toBe(true);
    expect(isTrustedSender(sender("app://shell/picker.html", PICKER), "offline")).toBe(false);
    expect(isTrustedSender(sender(`${CONSOLE}/`, DEPLOYMENT), "offline")).toBe(false);
  });

  it("console channels answer only the origin the window was opened for", () => {
    expect(isTrustedSender(sender(`${CONSOLE}/shop/orders`, DEPLOYMENT), "console")).toBe(true);
    expect(isTrustedSender(sender("https://evil.example/", DEPLOYMENT), "console")).toBe(false);
    expect(isTrustedSender(sender("http://atrium.example.com/", DEPLOYMENT), "console")).toBe(false);
    expect(isTrustedSender(sender("app://shell/offline.html", DEPLOYMENT), "console")).toBe(false);
    // The picker window has no deployment: a console page there (it cannot get there) would pass nothing.
    expect(isTrustedSender(sender(`${CONSOLE}/`, PICKER), "console")).toBe(false);
    expect(isTrustedSender(sender(`${CONSOLE}/`, PICKER), "any")).toBe(false);
    expect(isTrustedSender(sender(`${CONSOLE}/`, undefined), "any")).toBe(false);
  });

  it("shared channels answer any of them, and nobody from a subframe or a vanished frame", () => {
    expect(isTrustedSender(sender("app://shell/offline.html", DEPLOYMENT), "any")).toBe(true);
    expect(isTrustedSender(sender("app://shell/picker.html", PICKER), "any")).toBe(true);
    expect(isTrustedSender(sender(`${CONSOLE}/`, DEPLOYMENT), "any")).toBe(true);
    expect(isTrustedSender(sender("https://evil.example/", DEPLOYMENT), "any")).toBe(false);
    expect(isTrustedSender(sender(`${CONSOLE}/`, DEPLOYMENT, false), "any")).toBe(false);
    expect(isTrustedSender(sender("app://shell/picker.html", PICKER, false), "picker")).toBe(false);
    expect(isTrustedSender(sender(undefined, DEPLOYMENT), "any")).toBe(false);
  });

  it("every channel declares an audience; the deployment list is the picker's alone", () => {
    for (const channel of Object.values(channels)) {
      expect(["picker", "offline", "console", "any"]).toContain(channel.audience);
    }
    expect(channels.listDeployments.audience).toBe("picker");
    expect(channels.addDeployment.audience).toBe("picker");
    expect(channels.removeDeployment.audience).toBe("picker");
    expect(channels.retry.audience).toBe("offline");
    expect(channels.notify.audience).toBe("console");
    expect(new Set(Object.values(CHANNEL_NAMES)).size).toBe(Object.keys(channels).length);
  });
});

describe("registerIpc", () => {
  const setup = () => {
    const registered = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
    const ipcMain = { handle: vi.fn((name: string, fn) => registered.set(name, fn)) };
    const handlers = Object.fromEntries(
      Object.keys(channels).map((key) => [key, vi.fn(() => `${key} ran`)]),
    ) as unknown as Handlers & Record<string, ReturnType<typeof vi.fn>>;
    const refused = vi.fn();
    const consoleContents = { id: 1 } as WebContents;
    const pickerContents = { id: 2 } as WebContents;
    registerIpc(ipcMain, handlers, {
      roleOf: (contents) =>
        contents === consoleContents
          ? { kind: "deployment", origin: CONSOLE }
          : contents === pickerContents
            ? { kind: "picker" }
            : undefined,
      refused,
    });
    const event = (url: string | null, contents: WebContents = consoleContents, parent: unknown = null) =>
      ({ sender: contents, senderFrame: url === null ? null : { url, parent } }) as unknown as IpcMainInvokeEvent;
    const call = (name: string, ev: IpcMainInvokeEvent, ...args: unknown[]) => registered.get(name)!(ev, ...args);
    return { registered, handlers, refused, event, call, consoleContents, pickerContents };
  };

  it("registers a handler for every channel", () => {
    const { registered } = setup();
    expect([...registered.keys()].sort()).toEqual(Object.values(CHANNEL_NAMES).sort());
  });

  it("runs a handler for a trusted sender with parsed arguments", async () => {
    const { handlers, call, event, consoleContents, pickerContents } = setup();
    await call(CHANNEL_NAMES.notify, event(`${CONSOLE}/shop`), { title: " Order paid " });
    expect(handlers.notify).toHaveBeenCalledWith(consoleContents, { title: "Order paid", body: "" });
    await call(CHANNEL_NAMES.renameDeployment, event("app://shell/picker.html", pickerContents), {
      id: "0b7c5d9e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
      name: "Head office",
    });
    expect(handlers.renameDeployment).toHaveBeenCalledTimes(1);
  });

  it("refuses an untrusted sender before the handler runs", () => {
    const { handlers, call, event, refused } = setup();
    expect(() => call(CHANNEL_NAMES.listDeployments, event(`${CONSOLE}/`))).toThrow(/not allowed from this page/);
    expect(() => call(CHANNEL_NAMES.notify, event("https://evil.example/"))).toThrow(/not allowed/);
    expect(() => call(CHANNEL_NAMES.appVersion, event(`${CONSOLE}/`, undefined, { url: CONSOLE }))).toThrow(
      /not allowed/,
    );
    expect(() => call(CHANNEL_NAMES.appVersion, event(null))).toThrow(/not allowed/);
    expect(handlers.listDeployments).not.toHaveBeenCalled();
    expect(handlers.notify).not.toHaveBeenCalled();
    expect(handlers.appVersion).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledWith(CHANNEL_NAMES.listDeployments, "untrusted sender", `${CONSOLE}/`);
  });

  it("refuses arguments that fail the channel's schema", () => {
    const { handlers, call, event, refused, pickerContents } = setup();
    const shell = event("app://shell/picker.html", pickerContents);
    expect(() => call(CHANNEL_NAMES.removeDeployment, shell, "../../etc")).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.removeDeployment, shell)).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.addDeployment, shell, { name: "x", url: 42 })).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.appVersion, shell, "extra")).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.notify, event(`${CONSOLE}/`), { title: "" })).toThrow(/invalid arguments/);
    expect(() => call(CHANNEL_NAMES.notify, event(`${CONSOLE}/`), { title: "x".repeat(500) })).toThrow(/invalid/);
    expect(handlers.removeDeployment).not.toHaveBeenCalled();
    expect(handlers.addDeployment).not.toHaveBeenCalled();
    expect(handlers.notify).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalledWith(
      CHANNEL_NAMES.removeDeployment,
      "invalid arguments",
      "app://shell/picker.html",
    );
  });
});
