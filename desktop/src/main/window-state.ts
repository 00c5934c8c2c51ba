/**
 * Window geometry remembered per deployment. A saved position is used only if the window would still be
 * reachable: a monitor unplugged since the last run must not leave the window off screen.
 */
import { z } from "zod";

export const WindowState = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowState>;

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
export const MIN_SIZE = { width: 640, height: 480 } as const;
/** How much of the title bar must be on a display for the window to count as reachable. */
const GRIP = 64;

export type InitialBounds = { width: number; height: number; x?: number; y?: number; maximized: boolean };

export function initialBounds(saved: WindowState | undefined, workAreas: Rectangle[]): InitialBounds {
  if (!saved) return { ...DEFAULT_SIZE, maximized: false };
  const width = Math.max(saved.width, MIN_SIZE.width);
  const height = Math.max(saved.height, MIN_SIZE.height);
  const reachable = workAreas.some(
    (area) =>
      saved.x + width - GRIP >= area.x &&
      saved.x + GRIP <= area.x + area.width &&
      saved.y >= area.y &&
      saved.y + GRIP <= area.y + area.height,
  );
  if (!reachable) return { width, height, maximized: saved.maximized };
  return { x: saved.x, y: saved.y, width, height, maximized: saved.maximized };
}
