/** `tether hosts`: the running hosts, from their records. */
import { listHostRecords } from '../../discovery/host-record.js';

export function run(options: { json?: boolean }): void {
  const records = listHostRecords();
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify(
        records.map(({ token: _token, ...rest }) => rest),
        null,
        2,
      )}\n`,
    );
    return;
  }
  if (records.length === 0) {
    process.stdout.write('No running hosts. Start one with `npm start` or `tether sandbox --project DIR`.\n');
    return;
  }
  for (const r of records) process.stdout.write(`${r.kind}\t${r.name ?? ''}\tpid ${r.pid}\tport ${r.port}\t${r.projectPath}\n`);
}
