/**
 * The raw floor: newline-delimited JSON echoed over a pipe, with no MCP and no framing
 * library. Each line is parsed and a JSON-RPC-shaped answer is stringified back.
 */
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let newline = buffered.indexOf('\n');
  while (newline >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    const message = JSON.parse(line) as { id: number; params?: { arguments?: { text?: string } } };
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: message.params?.arguments?.text ?? 'pong' }] } })}\n`);
    newline = buffered.indexOf('\n');
  }
});
process.stdin.once('end', () => process.exit(0));
