/** An expected way for a command to end with a message and an exit code (not a bug). */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
