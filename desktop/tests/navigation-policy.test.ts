import { EventEmitter } from "node:events";
import type { WebContents } from "electron";
import { describe, expect, it, vi } from "vitest";
import {
  confineNavigation,
  decideFrameNavigation,
  decideNavigation,
  decideWindowOpen,
} from "../src/main/navigation-policy";

const ORIGIN = "http://localhost:3000";

describe("navigation policy", () => {
  it.each([
    ["http://localhost:3000/", "allow"],
    ["http://localhost:3000/settings/sops?page=2#runs", "allow"],
    ["http://localhost:3001/", "open-externally"],
    ["https://localhost:3000/", "open-externally"],
    ["http://127.0.0.1:3000/", "open-externally"],
    ["https://docs.example.com/atrium", "open-externally"],
    ["https://user:pw@evil.example/", "deny"],
    ["file:///etc/passwd", "deny"],
    ["javascript:alert(1)", "deny"],
    ["data:text/html,<script>alert(1)</script>", "deny"],
    ["app://shell/picker.html", "deny"],
    ["mailto:owner@example.com", "deny"],
    ["ms-settings:privacy", "deny"],
    ["atrium://open?deployment=x", "deny"],
    ["not a url", "deny"],
  ])("%s → %s", (url, decision) => {
    expect(decideNavigation(url, ORIGIN)).toBe(decision);
  });

  it("frames may show only the deployment; nothing leaves for the browser from a frame", () => {
    expect(decideFrameNavigation("http://localhost:3000/embed", ORIGIN)).toBe("allow");
    expect(decideFrameNavigation("https://ads.example.com/", ORIGIN)).toBe("deny");
    expect(decideFrameNavigation("file:///etc/passwd", ORIGIN)).toBe("deny");
  });

  it("new windows: console links load in the same window, web links go to the browser, the rest is refused", () => {
    expect(decideWindowOpen("http://localhost:3000/shop/orders", ORIGIN)).toBe("load-here");
    expect(decideWindowOpen("https://example.com/", ORIGIN)).toBe("open-externally");
    expect(decideWindowOpen("file://fileserver/share/report.pdf", ORIGIN)).toBe("deny");
  });
});

/** Just enough of WebContents to emit the events Electron would, and to capture the window-open handler. */
function fakeContents() {
  const emitter = new EventEmitter();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = Object.assign(emitter, {
    loadURL: vi.fn(async () => {}),
    setWindowOpenHandler: (handler: typeof openHandler) => {
      openHandler = handler;
    },
  });
  const event = (fields: Record<string, unknown> = {}) => ({ preventDefault: vi.fn(), ...fields });
  return { contents, event, open: (url: string) => openHandler!({ url }) };
}

describe("confineNavigation wires the policy to a window's events", () => {
  const setup = () => {
    const fake = fakeContents();
    const hooks = { openExternal: vi.fn(), refused: vi.fn() };
    confineNavigation(fake.contents as unknown as WebContents, ORIGIN, hooks);
    return { ...fake, hooks };
  };

  it("will-navigate: same origin proceeds, a web link is stopped and opened in the browser, file: is refused", () => {
    const { contents, event, hooks } = setup();
    const same = event({ url: "http://localhost:3000/shop" });
    contents.emit("will-navigate", same);
    expect(same.preventDefault).not.toHaveBeenCalled();

    const web = event({ url: "https://example.com/help" });
    contents.emit("will-navigate", web);
    expect(web.preventDefault).toHaveBeenCalled();
    expect(hooks.openExternal).toHaveBeenCalledWith("https://example.com/help");

    const file = event({ url: "file:///etc/passwd" });
    contents.emit("will-navigate", file);
    expect(file.preventDefault).toHaveBeenCalled();
    expect(hooks.openExternal).toHaveBeenCalledTimes(1);
    expect(hooks.refused).toHaveBeenCalledWith("file:///etc/passwd", "navigation");
  });

  it("will-redirect: a main-frame redirect elsewhere is stopped and handed to the browser; a frame's is just stopped", () => {
    const { contents, event, hooks } = setup();
    const main = event({ url: "https://app.example.com/callback?code=1", isMainFrame: true });
    contents.emit("will-redirect", main);
    expect(main.preventDefault).toHaveBeenCalled();
    expect(hooks.openExternal).toHaveBeenCalledWith("https://app.example.com/callback?code=1");

    const frame = event({ url: "https://tracker.example.com/", isMainFrame: false });
    contents.emit("will-redirect", frame);
    expect(frame.preventDefault).toHaveBeenCalled();
    expect(hooks.openExternal).toHaveBeenCalledTimes(1);

    const inside = event({ url: "http://localhost:3000/login", isMainFrame: true });
    contents.emit("will-redirect", inside);
    expect(inside.preventDefault).not.toHaveBeenCalled();
  });

  it("will-frame-navigate: subframes stay on the deployment; the main frame is left to will-navigate", () => {
    const { contents, event, hooks } = setup();
    const foreign = event({ url: "https://evil.example/", isMainFrame: false });
    contents.emit("will-frame-navigate", foreign);
    expect(foreign.preventDefault).toHaveBeenCalled();
    expect(hooks.openExternal).not.toHaveBeenCalled();

    const own = event({ url: "http://localhost:3000/frame", isMainFrame: false });
    contents.emit("will-frame-navigate", own);
    expect(own.preventDefault).not.toHaveBeenCalled();

    const mainFrame = event({ url: "https://example.com/", isMainFrame: true });
    contents.emit("will-frame-navigate", mainFrame);
    expect(mainFrame.preventDefault).not.toHaveBeenCalled();
  });

  it("window.open never creates a window", () => {
    const { contents, open, hooks } = setup();
    expect(open("http://localhost:3000/shop/orders")).toEqual({ action: "deny" });
    expect(contents.loadURL).toHaveBeenCalledWith("http://localhost:3000/shop/orders");
    expect(open("https://example.com/")).toEqual({ action: "deny" });
    expect(hooks.openExternal).toHaveBeenCalledWith("https://example.com/");
    expect(open("javascript:alert(1)")).toEqual({ action: "deny" });
    expect(hooks.refused).toHaveBeenCalledWith("javascript:alert(1)", "new window");
  });

  it("<webview> is never attached", () => {
    const { contents, event } = setup();
    const attach = event();
    contents.emit("will-attach-webview", attach);
    expect(attach.preventDefault).toHaveBeenCalled();
  });
});
