// A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message it accepts; it can refuse on demand.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type CapturedMail = { from: string; to: string[]; raw: string };
export type SmtpCapture = {
  url: string;
  messages: CapturedMail[];
  /** While set, every message is refused with a temporary 451 error. */
  refuse: boolean;
  close(): Promise<void>;
};

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const capture = { messages: [] as CapturedMail[], refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (capture.refuse) {
          const err = Object.assign(new Error('try again later'), { responseCode: 451 });
          callback(err);
          return;
        }
        capture.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(capture, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
