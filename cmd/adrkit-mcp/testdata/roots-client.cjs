// The MCP TypeScript SDK's client drives the server command in argv[2],
// started in argv[3], answering roots/list with the directory argv[4] as
// a file: URI, then with argv[5] after notifications/roots/list_changed.
// It prints what search_decisions answered each time as JSON lines.
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { ListRootsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
const { pathToFileURL } = require("node:url");

async function main() {
  const [command, cwd, first, second] = process.argv.slice(2);
  let roots = [{ uri: pathToFileURL(first).href }];
  const client = new Client({ name: "roots-client", version: "1" }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
  await client.connect(new StdioClientTransport({ command, args: [], cwd, stderr: "inherit" }));
  const search = async () => {
    const res = await client.callTool({ name: "search_decisions", arguments: { query: "store" } });
    console.log(JSON.stringify(res.structuredContent.result));
  };
  await search();
  roots = [{ uri: pathToFileURL(second).href }];
  await client.sendRootsListChanged();
  await search();
  await client.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
