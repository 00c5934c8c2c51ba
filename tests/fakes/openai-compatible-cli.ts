/**
 * `npx tsx tests/fakes/openai-compatible-cli.ts` — the local model server (tests/fakes/openai-compatible.ts) for
 * trying Atrium's chat on a development machine without a model or a key: start Atrium with the `AI_BASE_URL` and
 * `AI_MODEL` printed here. The "model" follows a script: with tools it calls one (`use:<tool>` in a message picks
 * which), after a tool it answers `Based on <tool>: …`, otherwise `You said: …`; `fail:midstream` drops the
 * connection halfway. Nothing leaves the machine.
 */
import { startFakeOpenAICompatible } from "./openai-compatible";

const port = Number(process.env.FAKE_AI_PORT ?? 12113);
const fake = await startFakeOpenAICompatible({ port, model: process.env.FAKE_AI_MODEL });
console.log(`A local OpenAI-compatible model listens on ${fake.url}`);
console.log(`Start Atrium with AI_BASE_URL=${fake.url} AI_MODEL=${fake.model}`);
process.on("SIGINT", () => void fake.close().then(() => process.exit(0)));
