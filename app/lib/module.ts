/**
 * What a module contributes to the running app (ADR 001, docs/adding-a-module.md). Bootstrap lists the
 * modules (app/modules/manifest.server.ts) and knows nothing of what each brings: adding a module adds an
 * entry to that list, never a case to a switch.
 *
 * - `services`: what the module adds to the load context. Its keys are declared by the module itself, by
 *   augmenting `AppServices` (app/lib/context.ts), so app/lib never imports a module's types.
 * - `contributes`: what the module hands to other modules' machinery — job handlers and maintenance tasks for
 *   the job runner now; event-receiver families and chat tools later. Each kind of contribution is declared by
 *   the module that consumes it, by augmenting `ModuleContributions`.
 * - `start` / `stop`: the module's own lifecycle; `start` sees every module's contributions.
 *
 * Modules are built in list order, so a module's `services` may use those of the modules listed before it.
 */
import type { DatabaseHandle } from "~db/client";
import type { AppServices } from "~/lib/context";

/** Augmented by the modules that consume a kind of contribution (e.g. the jobs module adds `jobs`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleContributions {}

export interface AtriumModule {
  name: string;
  /** `database` gives the driver-level client to libraries that bring their own queries (rate-limiter-flexible). */
  services?(services: AppServices, database: DatabaseHandle): Partial<AppServices>;
  contributes?(services: AppServices): Partial<ModuleContributions>;
  start?(services: AppServices, contributions: ReadonlyArray<Partial<ModuleContributions>>): void;
  stop?(services: AppServices): Promise<void>;
}

/** Identity, for type-checking a module's definition where it is written. */
export const defineModule = (module: AtriumModule): AtriumModule => module;
