import { defineModule } from "~/lib/module";
import type { EventFamily } from "./family";
import { FAMILY_PATTERN } from "./family";
import { pruneReceiverEvents } from "./log.server";

/** The families every module contributed, by path (`branding`, `shipping/provider`). */
export interface EventFamilies {
  get(family: string): EventFamily | undefined;
  all(): EventFamily[];
}

declare module "~/lib/context" {
  interface AppServices {
    /** The event families of /api/webhooks/* (ADR 027), filled from the modules' contributions at start. */
    eventFamilies: EventFamilies;
  }
}

declare module "~/lib/module" {
  interface ModuleContributions {
    /** Families of /api/webhooks/*; a family belongs to one module. */
    eventFamilies: EventFamily[];
  }
}

function createEventFamilies(): EventFamilies & { register(families: EventFamily[]): void } {
  const byPath = new Map<string, EventFamily>();
  return {
    get: (family) => byPath.get(family),
    all: () => [...byPath.values()].sort((a, b) => a.family.localeCompare(b.family)),
    register(families) {
      for (const family of families) {
        if (!FAMILY_PATTERN.test(family.family)) throw new Error(`the event family "${family.family}" is no path`);
        if (byPath.has(family.family)) throw new Error(`two modules declare the event family ${family.family}`);
        byPath.set(family.family, family);
      }
    },
  };
}

/** Event receivers: the families' registry, and the pruning of their 30-day record. */
export const eventsModule = defineModule({
  name: "events",
  services: () => ({ eventFamilies: createEventFamilies() }),
  contributes: ({ db }) => ({ maintenance: [() => pruneReceiverEvents(db)] }),
  start: ({ eventFamilies }, contributions) => {
    (eventFamilies as ReturnType<typeof createEventFamilies>).register(
      contributions.flatMap((c) => c.eventFamilies ?? []),
    );
  },
});
