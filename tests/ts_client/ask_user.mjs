// Calls ask_user on an elicit-tui serve URL with the TypeScript SDK and prints one JSON line:
// {"result": CallToolResult, "progress": <notifications seen>} or {"error": message}.
// Usage: node ask_user.mjs URL TIMEOUT_MS RESET(true|false) QUESTIONS_JSON
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, timeout, reset, questions] = process.argv.slice(2);
const client = new Client({ name: "ts-agent", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
let progress = 0;
try {
  const result = await client.callTool(
    { name: "ask_user", arguments: { questions: JSON.parse(questions) } },
    undefined,
    {
      timeout: Number(timeout),
      resetTimeoutOnProgress: reset === "true",
      onprogress: () => {
        progress += 1;
      },
    },
  );
  console.log(JSON.stringify({ result, progress }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error.message ?? error), progress }));
}
await client.close();
