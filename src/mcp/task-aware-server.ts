/**
 * The SDK's low-level Server, with the one hook Tether needs inside the SDK's request
 * handling: `_wrapHandler`, protected, which the SDK documents as the place where a subclass
 * wraps every registered handler (its own Server validates tools/call results there). Two
 * things need it, and the SDK's public API offers a way to neither:
 *
 * - A tools/call the client wants as a task is answered with the task (tool-call-tasks.ts),
 *   which is no CallToolResult. The SDK checks every tools/call result as one, however the
 *   handler was registered, and keeps the codec that does it private; its public
 *   `fallbackRequestHandler` would skip that check for every call, not only for tasks. So the
 *   request is routed to the task runtime before the check, and the task is returned from
 *   there; everything else goes through the SDK's handler, checked as before.
 * - The SDK's check of a spec method's params reports a failure as a plain Error, which its
 *   dispatcher answers as -32603 Internal error; it is the client's mistake (invalid-params.ts).
 */
import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { invalidParamsOf } from './invalid-params.js';

/** Answers a tools/call with a task when it becomes one; undefined: answer it as usual. */
export type TaskRouter = (request: JSONRPCRequest, ctx: ServerContext) => Result | undefined;

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

export class TaskAwareServer extends Server {
  private taskRouter: TaskRouter | undefined;

  /** Where tools/call requests go first (see the header). */
  routeTasks(router: TaskRouter): void {
    this.taskRouter = router;
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler);
    const toolCall = method === 'tools/call';
    return async (request, ctx) => {
      try {
        return (toolCall ? this.taskRouter?.(request, ctx) : undefined) ?? (await checked(request, ctx));
      } catch (error) {
        throw invalidParamsOf(method, error) ?? error;
      }
    };
  }
}
