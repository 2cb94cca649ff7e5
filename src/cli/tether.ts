/**
 * The `tether` command line. Each command lives in commands/<name>.ts as a `run(options)`
 * that tests can call without argv; only this entry point turns errors into exit codes.
 */
import { Command, CommanderError, Option } from 'commander';
import { TetherError } from '../protocol/errors.js';
import { UnsafeDirectoryError } from '../discovery/secure-file.js';
import { CLIENTS } from './clients/registry.js';
import { quietOnBrokenPipes } from './broken-pipe.js';
import { ExitError } from './exit-error.js';
import { exitWhenFlushed } from './flushed-exit.js';
import { EXIT_CODES, helpFooter } from './exit-codes.js';
import { collect, integer, logFormatOption, logLevelOption, number, port, positive } from './option-values.js';
import { packageVersion } from './package-root.js';
import { DEFAULT_RELOAD_WAIT_MS, DEFAULT_WAIT_MS } from './wait-defaults.js';

const USAGE_EXIT_CODE = EXIT_CODES.usage;

quietOnBrokenPipes();

const program = new Command()
  .name('tether')
  .description('The bridge between AI agents (MCP) and long-running editors such as Unity.')
  .version(packageVersion())
  .showHelpAfterError()
  // Bad usage exits 2, as Tether's own usage errors do (commander's default is 1); subcommands inherit it.
  .exitOverride()
  .addHelpText(
    'after',
    helpFooter(
      [
        'npm start                                   # the sandbox editor, tether serve, and how to connect',
        'tether tools --project DIR',
        'tether call get_hierarchy depth=1 --project DIR',
        "tether <command> --help                     # each command's options, examples and exit codes",
      ],
      {
        failed: 'a failed call or check, or no editor to reach',
        outcomeUnknown: 'tether call: the outcome is unknown (the call may have taken effect)',
        resultNotWritten: 'tether call: the call completed, but its result could not be written',
      },
    ),
  );

program
  .command('sandbox')
  .description('Run the sandbox editor (a faithful Unity stand-in) on a project folder.')
  .requiredOption('--project <dir>', 'the project folder')
  .option('--build-seconds <n>', 'how long build_player blocks the main thread', number, 20)
  .option('--compile-ms <n>', 'how long compile_scripts takes (default: 1000)', integer)
  .option('--reload-ms <n>', 'how long a domain reload keeps the editor away (default: 3000)', integer)
  .option('--test-ms <n>', 'how long each test of run_tests takes (default: 400)', integer)
  .option('--port <n>', 'TCP port on 127.0.0.1 (default: a free one)', port)
  .option('--heartbeat-ms <n>', 'longest silence while a call runs (default: 5000)', positive)
  .option('--frame-timeout-ms <n>', 'how long a partial frame may stall (default: 30000)', positive)
  .option('--retention-ms <n>', 'how long finished calls are remembered (default: 900000, 15 minutes)', integer)
  .option('--max-connections <n>', 'serve this many connections at once; more evict the oldest (default: no limit)', positive)
  .option('--ping-interval-ms <n>', 'how often the editor pings each client, dropping one that misses a ping; 0: never (default: 15000)', integer)
  .option('--handshake-timeout-ms <n>', 'how long a connection may take to complete its hello (default: 10000)', positive)
  .option('--deadline-grace-ms <n>', 'how long past its deadline a tool that has not stopped is waited for before its call is given up (default: 30000)', integer)
  .option('--conformance-kit', 'expose the host conformance kit tools')
  .option('--conformance-fixtures', 'serve the fixture tools, resources and prompts of the official MCP conformance suite')
  .addOption(logLevelOption())
  .addOption(logFormatOption())
  .addHelpText(
    'after',
    helpFooter(['tether sandbox --project samples/sample-project', 'tether sandbox --project DIR --build-seconds 2 --log-format json   # one {"event":"ready",...} line per (re)load on stdout'], {
      usage: 'bad usage, or a project that is missing, not a folder, or open in another editor',
    }),
  )
  .action(async (options) => {
    const { run } = await import('./commands/sandbox.js');
    await run(options);
  });

program
  .command('start')
  .description('Start the sandbox editor on the bundled sample project with tether serve, and print how to connect MCP clients.')
  .option('--project <dir>', 'use this project instead of the bundled sample')
  .option('--build-seconds <n>', 'how long build_player blocks the main thread', number, 20)
  .option('--port <n>', 'HTTP port for tether serve', port, 7420)
  .addOption(logFormatOption())
  .addHelpText('after', helpFooter(['npm start                      # the same, from a checkout', 'tether start --port 0          # any free port'], { usage: 'bad usage, or the port is taken' }))
  .action(async (options) => {
    const { run } = await import('./commands/start.js');
    await run(options);
  });

program
  .command('mcp')
  .description('Serve MCP over stdio for the editor of a project (what MCP clients spawn).')
  .option('--project <dir>', 'the project whose editor to serve (default: the one containing the working directory, or the only one running)')
  .option(
    '--wait-ms <n>',
    `how long a call waits for an editor that is starting or away (default: 20000); for one reloading its code domain while its process runs, up to ${DEFAULT_RELOAD_WAIT_MS} ms in all (0: no wait at all)`,
    integer,
  )
  .addOption(logLevelOption('stderr and $TETHER_HOME/logs/mcp.log'))
  .addOption(logFormatOption())
  .addHelpText(
    'after',
    helpFooter(['tether mcp --project DIR       # as an MCP client runs it: stdout carries the protocol only', 'claude mcp add unity -- tether mcp --project DIR'], {
      ok: 'its client closed stdin, or a signal stopped it',
    }),
  )
  .action(async (options) => {
    const { run } = await import('./commands/mcp.js');
    await run(options);
  });

program
  .command('serve')
  .description('Serve MCP over Streamable HTTP at /mcp for many agents (bearer token, loopback by default).')
  .option('--port <n>', 'TCP port (0 picks a free one)', port, 7420)
  .option('--host <address>', 'address to bind', '127.0.0.1')
  .option('--allow-remote', 'allow binding a non-loopback address (the token is still required)')
  .option('--allowed-host <name>', 'also serve requests addressed to this host name, as remote clients name it (repeatable)', collect)
  .option('--allowed-origin <origin>', 'also let browser pages from this origin call (repeatable; loopback origins always may)', collect)
  .option('--project <dir>', 'the default project whose editor sessions are bound to')
  .option(
    '--wait-ms <n>',
    `how long a call waits for an editor that is starting or away (default: 20000); for one reloading its code domain while its process runs, up to ${DEFAULT_RELOAD_WAIT_MS} ms in all (0: no wait at all)`,
    integer,
  )
  .option('--max-body-bytes <n>', 'largest request body (default: 4194304, 4 MiB)', positive)
  .option('--interactive-sessions <n>', 'capacity of the interactive session pool (default: 256)', positive)
  .option('--ephemeral-sessions <n>', 'capacity of the ephemeral session pool (X-Tether-Pool: ephemeral; default: 1024)', positive)
  .option('--session-idle-ms <n>', 'reap sessions idle this long (one whose client listens on its GET stream is not idle; default: 1800000, 30 minutes)', positive)
  .option(
    '--session-recency-floor-ms <n>',
    'never evict a session used more recently than this (default: 60000; one not used since its initialize: at most 10000). To make room, sessions never used go first, then the client holding the most gives up its least recently used',
    integer,
  )
  .option(
    '--sessions-per-client <n>',
    'once a pool is at its capacity, sessions in use or used recently that one client (its address and clientInfo.name) may hold before its initialize gets 429 with when to retry (default: half the pool capacity, at least 16)',
    positive,
  )
  .option('--session-dormant-ms <n>', 'an idle session lets its MCP server go after this long, and rebuilds it on its next request (default: 60000)', integer)
  .option(
    '--header-timeout-ms <n>',
    'a connection must bring a request with the token within this long of opening, or it is closed; also the time any request has for its headers (default: 5000)',
    positive,
  )
  .option('--max-unauthenticated-connections <n>', 'connections that have not yet brought a request with the token, held at once; past it the oldest are closed (default: 128)', positive)
  .addOption(logLevelOption())
  .addOption(logFormatOption())
  .addHelpText(
    'after',
    helpFooter(
      [
        'tether serve --project DIR',
        'tether serve --port 0 --log-format json      # prints {"event":"listening","url":...}',
        'tether serve --host 0.0.0.0 --allow-remote --allowed-host build-box.local',
      ],
      {
        usage: 'bad usage, or the port is taken',
      },
    ),
  )
  .action(async (options) => {
    const { run } = await import('./commands/serve.js');
    await run(options);
  });

program
  .command('call')
  .description('Call one editor tool from a terminal or script and print the result.')
  .argument('<tool>', 'the tool name (tether tools lists them)')
  .argument('[key=value...]', "the arguments, each read as the tool's schema types it: number, boolean, JSON for an object or array, text otherwise")
  .option('--args <json>', 'the arguments as a JSON object (key=value arguments are added to it)')
  .option(
    '--out <file>',
    'write an image result to this file, checked before the call (a second image goes to FILE-2, …; default: <tool>-<date>-<time>.png in the current folder, or with --json none: the JSON holds the image)',
  )
  .option('--project <dir>', 'the project whose editor to call (default: the one containing the current folder, or the only one running)')
  .option('--json', 'print the result as JSON (and a failure as {"error": ...})')
  .option('--wait-ms <n>', `how long to wait for an editor that is starting or away (default: ${DEFAULT_WAIT_MS})`, integer)
  .option(
    '--reload-wait-ms <n>',
    `how long, in all, to wait for an editor that is reloading its code domain (a script change reloads it) while its process runs (default: ${DEFAULT_RELOAD_WAIT_MS}; 0 after --wait-ms 0)`,
    integer,
  )
  .option('--cancel-wait-ms <n>', 'after Ctrl-C, how long to wait for the editor to confirm it stopped the call (default: 5000)', integer)
  .addHelpText(
    'after',
    helpFooter(
      [
        'tether call get_hierarchy',
        'tether call find_gameobjects name=Player limit=5',
        "tether call modify_gameobject path=/Player 'position=[0,1,0]'      # quoted: [ ] is special to the shell",
        `tether call create_gameobject --args '{"name":"Cube","primitive":"Cube"}'`,
        'tether call screenshot width=640 height=480 --out shot.png',
        'tether call build_player target=WebGL --json | jq .structuredContent',
      ],
      {
        failed: 'the tool failed (its result says why), the arguments are wrong, the call was cancelled, or no editor answered within --wait-ms',
        usage: 'bad usage, such as --args that is not a JSON object, an argument without "=", or an --out that cannot be written; nothing was sent',
        outcomeUnknown: 'outcome unknown: the call may have taken effect, or may still; check the editor (tether status, by the callId the message gives) before calling again',
        resultNotWritten: 'the call completed, but its result (or image) could not be written (a full disk, a folder gone); do not call it again to get it',
      },
    ),
  )
  .action(async (tool: string, pairs: string[], options) => {
    const { run } = await import('./commands/call.js');
    process.exitCode = await run(tool, { ...options, pairs });
  });

program
  .command('tools')
  .description("List the editor's tools and the arguments each takes, as tether call wants them.")
  .argument('[tool]', 'show only this tool')
  .option('--project <dir>', 'the project whose editor to ask')
  .option('--json', 'print the tool descriptors as JSON')
  .option('--wait-ms <n>', `how long to wait for an editor that is starting or away (default: ${DEFAULT_WAIT_MS})`, integer)
  .option('--reload-wait-ms <n>', `how long, in all, to wait for an editor that is reloading its code domain while its process runs (default: ${DEFAULT_RELOAD_WAIT_MS}; 0 after --wait-ms 0)`, integer)
  .addHelpText(
    'after',
    helpFooter(['tether tools --project DIR', 'tether tools create_gameobject            # one tool and its arguments', "tether tools --json | jq -r '.[].name'"], {
      failed: 'no editor answered within --wait-ms, or no such tool',
    }),
  )
  .action(async (tool: string | undefined, options) => {
    const { run } = await import('./commands/tools.js');
    await run(options, tool);
  });

program
  .command('hosts')
  .description('List the running hosts (editors) this user can connect to.')
  .option('--json', 'print JSON')
  .addHelpText('after', helpFooter(['tether hosts', 'tether hosts --json']))
  .action(async (options) => {
    const { run } = await import('./commands/hosts.js');
    run(options);
  });

program
  .command('status')
  .description("Show the editors running, who is attached to each, the calls in flight with their agent and progress, calls whose outcome is unknown, and tether serve's sessions.")
  .option('--project <dir>', 'only the editor of this project')
  .option('--json', 'print the report as JSON (one line per redraw with --watch)')
  .option('--watch', 'redraw every second until Ctrl-C')
  .option('--open', "open tether serve's dashboard in the browser (prints a one-time login link)")
  .option('--no-browser', 'with --open: print the link only')
  .addHelpText(
    'after',
    helpFooter(['tether status', 'tether status --project DIR --watch', "tether status --json | jq '.editors[].calls'", 'tether status --open'], {
      failed: 'an editor (or tether serve) did not answer (with --open: no tether serve to log in to); the rest is still printed',
    }),
  )
  .action(async (options) => {
    const { run } = await import('./commands/status.js');
    process.exitCode = await run(options);
  });

program
  .command('logs')
  .description('Show the tool calls answered on this machine, one line each (time, outcome, tool, duration, agent, bytes, callId), from $TETHER_HOME/logs/.')
  .option('--follow', 'keep printing calls as they finish, until Ctrl-C')
  .option('--json', 'print each call as one JSON line')
  .option('--lines <n>', 'how many of the latest calls to show first (default: 50)', positive)
  .addHelpText('after', helpFooter(['tether logs', 'tether logs --follow', 'tether logs --json --lines 500 | jq \'select(.outcome == "unknown")\'']))
  .action(async (options) => {
    const { run } = await import('./commands/logs.js');
    await run(options);
  });

program
  .command('conformance')
  .description('Run the host conformance suite against a running host.')
  .requiredOption('--project <dir>', 'the project whose host to test')
  .option('--json', 'print the report as JSON')
  .option('--only <pattern>', 'run only checks whose id contains this text')
  .addHelpText(
    'after',
    helpFooter(['tether sandbox --project DIR --conformance-kit &  tether conformance --project DIR', 'tether conformance --project DIR --only heartbeat --json'], {
      failed: 'a check failed',
      usage: 'bad usage, no host running for the project, or no check matching --only',
    }),
  )
  .action(async (options) => {
    const { run } = await import('./commands/conformance.js');
    process.exitCode = await run(options);
  });

// `setup <target>`: one subcommand per editor and per MCP client to set up; alone, the clients found here.
const setup = program
  .command('setup')
  .description(
    'Set Tether up for an editor (tether setup unity --project PATH) or an MCP client (tether setup claude-code); alone, list the MCP clients found here and which have Tether for the project in the working directory.',
  )
  // No options of its own: the program would give a subcommand's --project (setup unity --project) to it.
  .action(async () => {
    const { run } = await import('./commands/setup-client.js');
    run(undefined, {});
  });

setup
  .command('unity')
  .description('Add the Tether host package to a Unity project (Packages/manifest.json) and print how to connect an agent.')
  .requiredOption('--project <dir>', 'the Unity project folder (the one with ProjectSettings/ProjectVersion.txt)')
  .option('--dry-run', 'print the change to Packages/manifest.json without writing it')
  .action(async (options) => {
    const { run } = await import('./commands/setup-unity.js');
    run(options);
  });

for (const client of CLIENTS) {
  setup
    .command(client.id)
    .description(`Write Tether into ${client.name}'s MCP configuration (${client.scopes.join(' or ')} scope), merged with what is there, with a backup.`)
    .option('--project <dir>', 'the project whose editor the agent drives (default: the working directory)')
    .addOption(new Option('--scope <scope>', `where to write it (default: ${client.scopes[0]})`).choices([...client.scopes]))
    .option('--http', 'reach tether serve over HTTP (token from the TETHER_TOKEN variable) instead of starting tether mcp (stdio)')
    .option('--url <url>', "with --http: the endpoint (default: the running tether serve's, else http://127.0.0.1:7420/mcp)")
    .option('--name <name>', "the server's name in the client", 'tether')
    .option('--dry-run', 'print the change without writing it')
    .action(async (options) => {
      const { run } = await import('./commands/setup-client.js');
      run(client.id, options);
    });
}

program
  .command('doctor')
  .description('Check that an MCP client reaches Tether: start what its configuration starts, as it would, and check each step.')
  .addOption(new Option('--client <name>', 'the client whose configuration to check (default: the command tether setup writes)').choices(CLIENTS.map((c) => c.id)))
  .option('--scope <scope>', "the configuration scope to read (default: the client's first)")
  .option('--project <dir>', 'the project (default: the working directory)')
  .option('--name <name>', "the server's name in the client", 'tether')
  .option('--json', 'print the checks as JSON')
  .option('--timeout-ms <n>', 'how long each step may take', positive)
  .action(async (options) => {
    const { run } = await import('./commands/doctor.js');
    process.exitCode = await run(options);
  });

// A command whose help has no examples and exit codes of its own gets the general ones.
// (A Command is an EventEmitter, which commander's types do not say; addHelpText('after') listens for afterHelp.)
const hasFooter = (command: Command): boolean => (command as unknown as NodeJS.EventEmitter).listenerCount('afterHelp') > 0;
const undocumented = (command: Command): Command[] => command.commands.flatMap((sub) => [...(sub.commands.length === 0 && !hasFooter(sub) ? [sub] : []), ...undocumented(sub)]);
for (const command of undocumented(program)) {
  const path = [];
  for (let at: Command | null = command; at && at !== program; at = at.parent) path.unshift(at.name());
  const required = command.options.filter((option) => option.mandatory).map((option) => `${option.long} ${option.flags.includes('<') ? option.flags.slice(option.flags.indexOf('<')) : ''}`.trim());
  command.addHelpText('after', helpFooter([['tether', ...path, ...required].join(' ')], { failed: 'failed (the message says why)' }));
}

program.parseAsync().catch((error: unknown) => {
  // Commander has said what was wrong (or shown the help or version) already.
  if (error instanceof CommanderError) return exitWhenFlushed(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE);
  if (error instanceof ExitError) {
    process.stderr.write(`tether: ${error.message}\n`);
    return exitWhenFlushed(error.exitCode);
  }
  // A typed error says what happened and what to do: it is a failure to report, not a bug.
  if (error instanceof TetherError || error instanceof UnsafeDirectoryError) {
    process.stderr.write(`tether: ${error.message} [${error.code}]\n`);
    return exitWhenFlushed(EXIT_CODES.failed);
  }
  process.stderr.write(`tether: unexpected error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitWhenFlushed(EXIT_CODES.unexpected);
});
