/**
 * Where a deployment window may go. The console is trusted only at its own origin: anything else it links to
 * is the open web, which belongs in the operator's browser, and any other scheme (file:, javascript:, custom
 * app handlers) is refused outright because the shell cannot tell a legitimate one from an attack.
 */
import type {
  Event,
  HandlerDetails,
  WebContents,
  WebContentsWillFrameNavigateEventParams,
  WebContentsWillRedirectEventParams,
} from "electron";

export type NavigationDecision = "allow" | "open-externally" | "deny";

export function decideNavigation(target: string, deploymentOrigin: string): NavigationDecision {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return "deny";
  }
  if (url.origin === deploymentOrigin) return "allow";
  if ((url.protocol === "https:" || url.protocol === "http:") && url.username === "" && url.password === "") {
    return "open-externally";
  }
  return "deny";
}

/** Frames inside the console may show only the console itself; nothing is handed to the browser from a frame. */
export function decideFrameNavigation(target: string, deploymentOrigin: string): "allow" | "deny" {
  return decideNavigation(target, deploymentOrigin) === "allow" ? "allow" : "deny";
}

/**
 * A request for a new window (target=_blank, window.open). No window is ever created: a console link is followed
 * in the same window, a web link goes to the browser.
 */
export function decideWindowOpen(target: string, deploymentOrigin: string): "load-here" | "open-externally" | "deny" {
  const decision = decideNavigation(target, deploymentOrigin);
  return decision === "allow" ? "load-here" : decision;
}

export interface NavigationHooks {
  openExternal(url: string): void;
  refused(url: string, reason: string): void;
}

/** Binds the policy to a window's contents. Loads the main process starts itself (loadURL) are not filtered. */
export function confineNavigation(contents: WebContents, deploymentOrigin: string, hooks: NavigationHooks): void {
  const guardMainFrame = (event: Event, url: string, kind: string) => {
    const decision = decideNavigation(url, deploymentOrigin);
    if (decision === "allow") return;
    event.preventDefault();
    if (decision === "open-externally") hooks.openExternal(url);
    else hooks.refused(url, kind);
  };
  const guardSubframe = (event: Event, url: string, kind: string) => {
    if (decideFrameNavigation(url, deploymentOrigin) === "allow") return;
    event.preventDefault();
    hooks.refused(url, kind);
  };
  contents.on("will-navigate", (event) => guardMainFrame(event, event.url, "navigation"));
  // will-navigate covers the main frame only; frames get their own, stricter check.
  contents.on("will-frame-navigate", (event: Event<WebContentsWillFrameNavigateEventParams>) => {
    if (!event.isMainFrame) guardSubframe(event, event.url, "frame navigation");
  });
  // A server redirect elsewhere (an OAuth consent answering to a third-party app, say) leaves the console too.
  contents.on("will-redirect", (event: Event<WebContentsWillRedirectEventParams>) => {
    if (event.isMainFrame) guardMainFrame(event, event.url, "redirect");
    else guardSubframe(event, event.url, "frame redirect");
  });
  contents.setWindowOpenHandler((details: HandlerDetails) => {
    const decision = decideWindowOpen(details.url, deploymentOrigin);
    if (decision === "load-here") void contents.loadURL(details.url);
    else if (decision === "open-externally") hooks.openExternal(details.url);
    else hooks.refused(details.url, "new window");
    return { action: "deny" };
  });
  contents.on("will-attach-webview", (event) => {
    event.preventDefault();
    hooks.refused("webview", "webview");
  });
}
