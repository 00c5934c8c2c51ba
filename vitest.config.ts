/**
 * Tests run apart from the Remix Vite plugin: integration and browser tests exercise the production build
 * through the real server (tests/global-setup.ts builds it when it is missing or stale). Every project
 * works in one temp folder per run, removed at the end (tests/helpers/temp-root.ts).
 */
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts"],
          globalSetup: ["tests/helpers/temp-root.ts"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/temp-root.ts", "tests/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/helpers/temp-root.ts", "tests/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One browser at a time: two cores, and Chromium is the heaviest thing we run.
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
