// Records every connection undici opens, so tests can prove a refused URL never reached the network.
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

export type ConnectionMonitor = {
  /** Connection attempts started (host as undici saw it), including those refused inside the lookup. */
  attempts: string[];
  /** Remote addresses of connections that were actually established. */
  connectedTo: string[];
  stop(): void;
};

export function monitorConnections(): ConnectionMonitor {
  const attempts: string[] = [];
  const connectedTo: string[] = [];
  const onBefore = (message: unknown) => {
    attempts.push((message as { connectParams: { hostname: string } }).connectParams.hostname);
  };
  const onConnected = (message: unknown) => {
    connectedTo.push((message as { socket: Socket }).socket.remoteAddress ?? 'unknown');
  };
  diagnosticsChannel.subscribe('undici:client:beforeConnect', onBefore);
  diagnosticsChannel.subscribe('undici:client:connected', onConnected);
  return {
    attempts,
    connectedTo,
    stop() {
      diagnosticsChannel.unsubscribe('undici:client:beforeConnect', onBefore);
      diagnosticsChannel.unsubscribe('undici:client:connected', onConnected);
    },
  };
}

export const isLoopback = (address: string) => address === '::1' || address.startsWith('127.');
