import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { consoleNotFoundRoutes } from "./app/console/not-found-routes";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
      // Beside app/routes' files: the console's 404 for every console segment (ADR 015).
      routes: async () => consoleNotFoundRoutes(),
    }),
    tsconfigPaths(),
  ],
  build: {
    target: "es2022",
    rollupOptions: {
      // Remix makes a client entry of every route, resource routes too; theirs exports nothing for the
      // browser (only a loader or action), so Rollup warns "Generated an empty chunk" once per API route.
      // The browser never loads those chunks: the warning says nothing we could act on. Others still show.
      onwarn(warning, warn) {
        if (warning.code !== "EMPTY_BUNDLE") warn(warning);
      },
    },
  },
});
