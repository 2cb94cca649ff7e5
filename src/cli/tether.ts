/**
 * The `tether` command line. Each command lives in commands/<name>.ts as a `run(options)`
 * that tests can call without argv; only this entry point turns errors into exit codes.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { TetherError } from '../protocol/errors.js';
import { ExitError } from './exit-error.js';
import { packageVersion } from './package-root.js';

const USAGE_EXIT_CODE = 2;

// A reader that stops early (`tether call … | head`) is not a failure of the command: what is
// left unwritten goes nowhere, quietly, and the exit code still says how the call ended.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

/** A parser for an option that takes an integer from `min` to `max`; `expected` says which, when it is not. */
function integerFrom(min: number, max: number, expected: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) throw new InvalidArgumentError(expected);
    return parsed;
  };
}

const integer = integerFrom(0, Number.POSITIVE_INFINITY, 'expected a non-negative integer');
const positive = integerFrom(1, Number.POSITIVE_INFINITY, 'expected a positive integer');
const port = integerFrom(0, 65_535, 'expected a port number from 0 to 65535 (0: any free port)');

function number(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative number');
  return parsed;
}

/** A repeatable option's values, in the order given. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

const program = new Command()
  .name('tether')
  .description('The bridge between AI agents (MCP) and long-running editors such as Unity.')
  .version(packageVersion())
  .showHelpAfterError()
  // Bad usage exits 2, as Tether's own usage errors do (commander's default is 1); subcommands inherit it.
  .exitOverride();

program
  .command('sandbox')
  .description('Run the sandbox editor (a faithful Unity stand-in) on a project folder.')
  .requiredOption('--project <dir>', 'the project folder')
  .option('--build-seconds <n>', 'how long build_player blocks the main thread', number, 20)
  .option('--compile-ms <n>', 'how long compile_scripts takes', integer)
  .option('--reload-ms <n>', 'how long a domain reload keeps the editor away', integer)
  .option('--test-ms <n>', 'how long each test of run_tests takes', integer)
  .option('--port <n>', 'TCP port on 127.0.0.1 (default: a free one)', port)
  .option('--heartbeat-ms <n>', 'longest silence while a call runs', positive)
  .option('--frame-timeout-ms <n>', 'how long a partial frame may stall', positive)
  .option('--retention-ms <n>', 'how long finished calls are remembered', integer)
  .option('--max-connections <n>', 'serve this many connections at once; more evict the oldest', positive)
  .option('--conformance-kit', 'expose the host conformance kit tools')
  .option('--conformance-fixtures', 'serve the fixture tools, resources and prompts of the official MCP conformance suite')
  .addOption(new Option('--log-level <level>', 'log level').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']))
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
  .action(async (options) => {
    const { run } = await import('./commands/start.js');
    await run(options);
  });

program
  .command('mcp')
  .description('Serve MCP over stdio for the editor of a project (what MCP clients spawn).')
  .option('--project <dir>', 'the project whose editor to serve (default: the one containing the working directory, or the only one running)')
  .option('--wait-ms <n>', 'how long a call waits for an editor that is starting or reloading', integer)
  .addOption(new Option('--log-level <level>', 'log level (logs go to stderr and $TETHER_HOME/logs/mcp.log)').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']))
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
  .option('--wait-ms <n>', 'how long a call waits for an editor that is starting or reloading', integer)
  .option('--max-body-bytes <n>', 'largest request body', positive)
  .option('--interactive-sessions <n>', 'capacity of the interactive session pool', positive)
  .option('--ephemeral-sessions <n>', 'capacity of the ephemeral session pool (X-Tether-Pool: ephemeral)', positive)
  .option('--session-idle-ms <n>', 'reap sessions idle this long (one whose client listens on its GET stream is not idle)', positive)
  .option('--session-recency-floor-ms <n>', 'never evict a session used more recently than this', integer)
  .option('--session-dormant-ms <n>', 'an idle session lets its MCP server go after this long, and rebuilds it on its next request (default 60000)', integer)
  .addOption(new Option('--log-level <level>', 'log level').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']))
  .action(async (options) => {
    const { run } = await import('./commands/serve.js');
    await run(options);
  });

program
  .command('call')
  .description('Call one editor tool from a terminal or script and print the result.')
  .argument('<tool>', 'the tool name (tether call list_menu_items)')
  .option('--args <json>', 'the arguments, as a JSON object')
  .option('--project <dir>', 'the project whose editor to call')
  .option('--json', 'print the result as JSON')
  .option('--wait-ms <n>', 'how long to wait for an editor that is starting or reloading', integer)
  .option('--cancel-wait-ms <n>', 'after Ctrl-C, how long to wait for the editor to confirm it stopped the call', integer)
  .action(async (tool: string, options) => {
    const { run } = await import('./commands/call.js');
    process.exitCode = await run(tool, options);
  });

program
  .command('tools')
  .description('List the editor\'s tools and the arguments each takes, as tether call wants them.')
  .option('--project <dir>', 'the project whose editor to ask')
  .option('--json', 'print the tool descriptors as JSON')
  .option('--wait-ms <n>', 'how long to wait for an editor that is starting or reloading', integer)
  .action(async (options) => {
    const { run } = await import('./commands/tools.js');
    await run(options);
  });

program
  .command('hosts')
  .description('List the running hosts (editors) this user can connect to.')
  .option('--json', 'print JSON')
  .action(async (options) => {
    const { run } = await import('./commands/hosts.js');
    run(options);
  });

program
  .command('conformance')
  .description('Run the host conformance suite against a running host.')
  .requiredOption('--project <dir>', 'the project whose host to test')
  .option('--json', 'print the report as JSON')
  .option('--only <pattern>', 'run only checks whose id contains this text')
  .action(async (options) => {
    const { run } = await import('./commands/conformance.js');
    process.exitCode = await run(options);
  });

// `setup <target>`: one subcommand per editor (and, later, per MCP client) to set up.
const setup = program.command('setup').description('Set Tether up for an editor: tether setup unity --project PATH.');

setup
  .command('unity')
  .description('Add the Tether host package to a Unity project (Packages/manifest.json) and print how to connect an agent.')
  .requiredOption('--project <dir>', 'the Unity project folder (the one with ProjectSettings/ProjectVersion.txt)')
  .option('--dry-run', 'print the change to Packages/manifest.json without writing it')
  .action(async (options) => {
    const { run } = await import('./commands/setup-unity.js');
    run(options);
  });

program.parseAsync().catch((error: unknown) => {
  // Commander has said what was wrong (or shown the help or version) already.
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE);
  if (error instanceof ExitError) {
    process.stderr.write(`tether: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  // A typed error says what happened and what to do: it is a failure to report, not a bug.
  if (error instanceof TetherError) {
    process.stderr.write(`tether: ${error.message} [${error.code}]\n`);
    process.exit(1);
  }
  process.stderr.write(`tether: unexpected error (please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(70);
});
