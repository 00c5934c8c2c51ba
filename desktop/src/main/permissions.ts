/**
 * Web permissions in a deployment window. Chromium would otherwise prompt for (or silently grant) camera,
 * geolocation, MIDI and the rest; the console needs none of them, so everything is refused except a short
 * list, and only for the deployment's own origin: a frame from elsewhere gets nothing.
 */
import type { Session } from "electron";

/** The console's Copy buttons write to the clipboard; full screen is harmless and expected of a desktop app. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(["clipboard-sanitized-write", "fullscreen"]);

export function decidePermission(permission: string, requestingUrl: string | undefined, deploymentOrigin: string) {
  if (!ALLOWED_PERMISSIONS.has(permission) || requestingUrl === undefined) return false;
  try {
    return new URL(requestingUrl).origin === deploymentOrigin;
  } catch {
    return false;
  }
}

export function applyPermissionPolicy(session: Session, deploymentOrigin: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(decidePermission(permission, details.requestingUrl, deploymentOrigin));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    decidePermission(permission, requestingOrigin, deploymentOrigin),
  );
  // USB, HID and serial devices, and screen capture, are never offered to the console.
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
}
