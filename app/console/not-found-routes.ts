/**
 * The route entries of the console's 404 (ADR 015), one `<segment>/*` per console segment, nested in the
 * console layout. A static first segment ranks above the public `$site` route's dynamic one, so `/shop` and
 * `/customers/x` reach the console, while `/harbor-bakery` stays the public site's. A page built later under
 * the same segment (`_console.shop.tsx`) ranks above the splat and takes its path; the splat keeps answering
 * the paths below it that no page serves. Read by vite.config.ts, so it imports nothing from the app's aliases.
 */
import { CONSOLE_SEGMENTS } from "../lib/console-pages";

export const CONSOLE_LAYOUT_ID = "routes/_console";
export const CONSOLE_NOT_FOUND_FILE = "console/not-found-route.tsx";

export interface ConfigRouteEntry {
  id: string;
  parentId: string;
  path: string;
  file: string;
}

export function consoleNotFoundRoutes(): Record<string, ConfigRouteEntry> {
  return Object.fromEntries(
    CONSOLE_SEGMENTS.map((segment) => {
      const id = `console-not-found/${segment}`;
      return [id, { id, parentId: CONSOLE_LAYOUT_ID, path: `${segment}/*`, file: CONSOLE_NOT_FOUND_FILE }];
    }),
  );
}
