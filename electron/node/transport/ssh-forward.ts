// Local port forwarding for an SshTarget (ssh-target.ts): a loopback listener whose connections
// are carried by direct-tcpip channels to host:port as seen from the board (ssh -L).
import { createServer, type Server, type Socket } from 'node:net';
import type { Link } from './ssh-connection-chain';
import type { SshLink } from './ssh-link';

export interface PortForward {
  localPort: number;
  close(): Promise<void>;
}

export class SshForwards {
  private readonly open = new Set<PortForward>();

  constructor(
    private readonly link: SshLink,
    private readonly label: string,
  ) {}

  async forwardPort(remoteHost: string, remotePort: number): Promise<PortForward> {
    if (!Number.isInteger(remotePort) || remotePort < 1 || remotePort > 65535)
      throw new RangeError(`invalid port ${remotePort}`);
    this.link.current();
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let link: Link;
      try {
        // The link of the moment: a forward outlives reconnects.
        link = this.link.current();
      } catch {
        socket.destroy();
        return;
      }
      link.client.forwardOut('127.0.0.1', socket.remotePort ?? 0, remoteHost, remotePort, (err, channel) => {
        if (err) {
          this.link.log(`port forward to ${remoteHost}:${remotePort} on ${this.label} failed: ${err.message}`);
          socket.destroy();
          return;
        }
        socket.pipe(channel).pipe(socket);
        socket.on('error', () => channel.close());
        channel.on('error', () => socket.destroy());
        channel.on('close', () => socket.destroy());
        socket.on('close', () => channel.close());
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    const localPort = typeof address === 'object' && address ? address.port : 0;
    const handle: PortForward = {
      localPort,
      close: async () => {
        this.open.delete(handle);
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
    this.open.add(handle);
    return handle;
  }

  /** Close every forward still open. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((f) => f.close()));
  }
}
