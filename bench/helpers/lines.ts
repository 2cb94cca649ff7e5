/** Newline-delimited text from a stream, for the bench's raw helpers. */

/**
 * Calls `onLine` with each line `stream` delivers, without its newline. Lines may be 50 MiB:
 * chunks are kept and joined once a newline arrives (the whole is never rescanned).
 */
export function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let chunks: string[] = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      chunks.push(chunk.slice(start, newline));
      const line = chunks.join('');
      chunks = [];
      start = newline + 1;
      onLine(line);
    }
    if (start < chunk.length) chunks.push(chunk.slice(start));
  });
}
