/** The prose of docs/reliability.md around the figures: what each suite does, and how to read it. */
import type { Suite, SuiteText } from './report.js';

export const PREAMBLE = `# Reliability under hostile input and long runs

This file is written by \`npm run hostile\` (bench/hostile/): do not edit it by hand. Every
figure comes from real \`tether\` processes (the sandbox editor, \`tether mcp\`, \`tether serve\`)
on the machine named beside it, with the seed that replays it:

\`\`\`sh
npm run hostile                                  # the full form (about three hours on 2 CPUs), writes this file
npm run hostile -- --quick                       # the quick form (about three minutes), for CI
npm run hostile -- --only chaos --seed SEED      # one suite again, as it ran
npm run hostile -- --only fuzz --parsers serve-http --seed SEED --from-batch B --inputs 2000   # one fuzz batch
\`\`\`

The suites, and a suite's cases, may run apart (\`--only\`, \`--parsers\`), one after another
or side by side: each figure carries the date it was measured, and each section the machine.

A bar of 0 is met only by 0. "Flat" means a least-squares slope per hour, taken after the
first fifth of the run (warm-up: JIT, pools and caches filling), under the limit given; see
"What flat means" at the end.`;

export const SUITE_TEXTS: Record<Suite, SuiteText> = {
  fuzz: {
    title: 'Fuzzing every parser a peer can reach',
    intro: `Inputs come from fast-check arbitraries (JSON-RPC messages with each parser's methods and
params close to what it takes, wrong versions, ids of every type, batches) and from a byte
mutator over valid inputs (bit flips, special bytes, repeated ranges, splices, truncation),
plus framing and header fuzz, random bytes and deep nesting. Each batch has its own seed,
derived from the run's seed and the batch number. Between batches a legitimate call must be
answered (a hang is one that is not, even after a retry two seconds later); a crash is the
process dying (it is started again and counted). The host's frames before the handshake go
one input per fresh connection, and anything but a refusal, or a byte of the token,
TETHER_HOME or the home folder, counts against it. \`tether serve\`'s requests: a stranger
(no valid token) may get a refusal, a CORS preflight answer, "100 Continue" or the
dashboard's static page and its two files (the same bytes for everyone, like any login page;
the data is behind the login), nothing more. A request target other than a path (an
absolute URL, //host/path, *) is refused with a 400.
Descriptors and RSS are the target process's, before the first batch and after the last
(descriptors once settled, within 15 s).`,
  },
  chaos: {
    title: 'Chaos against non-idempotent calls',
    intro: `Rounds of a fresh editor each. With idempotency keys: the chaos scenario of the test suite
(reloads, kill -9 of the editor, killed fronts, cancellations; agents retry with the same
key), judged by its own assertions and again from the editor's logs. Without keys: agents
over \`tether mcp\` and \`tether serve\` create uniquely named objects, once each, while the editor, the fronts and \`tether serve\` are killed (-9) and
stopped (SIGTERM), the editor is reloaded and killed a few milliseconds into a call, every
connection is cut or silently stalled (half-open), and clients vanish mid-call. The judge
is the editor's own account: its journal gives each operation's callIds, its executions log
how often each ran. "Not run" is what a client was told by HOST_UNAVAILABLE, HOST_NOT_FOUND,
SHUTTING_DOWN, an HTTP refusal of the whole request, or CANCELLED/INTERNAL_ERROR with
\`started: false\`.`,
  },
  soak: {
    title: 'Load and soak',
    intro: `Fronts (\`tether mcp\` with their MCP clients) and HTTP sessions on one \`tether serve\` call the
editor for the whole run while it reloads regularly and is restarted (SIGTERM, then kill -9).
Every process is sampled: RSS and descriptors from /proc, the live heap after a full
collection through the inspector for \`tether serve\`, the editor and one of the fronts, and the
processes below the harness. Each front is collected through its inspector before its RSS is
read. Every sample is kept in bench/results/hostile/<form>/soak-series.json.
Slopes are taken after the first fifth of the run (warm-up), and RSS slopes over its second
half (see "What flat means"). The editor's are taken over its longest run between restarts,
and its memory's only once its journal has filled: a host keeps finished calls' outcomes for
15 minutes (read-only ones in memory, within 64 MiB), so its heap grows by design for that
long after each start. The restarts all come in the first quarter of the run, so that the
editor's last run is long enough to judge after it.`,
  },
  attacks: {
    title: 'Attacks found by an adversarial review, as regression cases',
    intro: `Each case is what an attacker did, run against the current code: strangers flooding
\`tether serve\` with connections that never finish a request while an agent keeps calling; a
program holding an editor's port that does not do proofs; frames of nested arrays sent at
once; one token holder flooding \`tether serve\` with sessions; Host headers that are not
\`host[:port]\`; and every refusal a stranger gets, read for the token and private paths.`,
  },
};

export const CLOSING = `## What flat means

Over an hour the soak answers on the order of a hundred thousand calls. A leak of 50 bytes a
call would grow the live heap by about 5 MiB an hour: that is the limit for the heap after a
full collection (\`tether serve\` and the editor). RSS moves with the allocator and V8's heap
sizing as well as with what is live (and with memory outside the JS heap, such as buffers,
which the heap figure does not count), so its limit is 20 MiB an hour per process (60 MiB for
the 30 fronts summed). RSS is judged over the second half of the run, because of two warm-ups
measured on \`tether mcp\` (a front sees about one call every two seconds): V8 leaves garbage in
a slow process's old generation until its first major collection, about 40 minutes in at that
rate (so each front is collected before its RSS is read), and glibc keeps memory that V8's
compiler threads freed in per-thread pools, which grow as functions turn hot for about 25
minutes and then hold (3–8 MiB a front; turning V8's concurrent recompilation off, or fixing
glibc's trim threshold with MALLOC_TRIM_THRESHOLD_, removes it). Neither is memory kept per
call: with collections forced, a front's live heap held within 0.5 MiB over 8,900 calls, 33–38
reloads and 2 restarts. The fronts run as users run them, with no allocator setting. Descriptors are whole numbers that go up and down with connections in
flight: a leak of one per reload (60 an hour) or per restart would show well above the limit
of 2 an hour. Processes: 1 an hour, less than one leaked per restart. A run of minutes (the
quick form) reports its slopes without judging them.`;
