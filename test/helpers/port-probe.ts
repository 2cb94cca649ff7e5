/** Probes of a host's port, for tests that watch an editor between two listeners. */
import { connect } from 'node:net';

/** Whether a connection to the port is refused (the editor between two listeners). */
export function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
