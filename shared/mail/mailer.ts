// Outgoing e-mail over SMTP (nodemailer), one transport per SMTP_URL per process; none when SMTP_URL is unset.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config/index.js';

export type OutgoingMail = { to: string[]; subject: string; text: string };
export type Mailer = { send(mail: OutgoingMail): Promise<{ messageId: string; accepted: string[] }> };

const transports = new Map<string, Transporter>();

/** The mailer of this process, or undefined when e-mail is not configured (no SMTP_URL). */
export function mailerFor(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer | undefined {
  const url = config.SMTP_URL;
  if (!url) return undefined;
  let transport = transports.get(url);
  if (!transport) {
    // Messages are plain text we compose; attachments or content must never be read from files or URLs.
    transport = nodemailer.createTransport({
      url,
      disableFileAccess: true,
      disableUrlAccess: true,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    transports.set(url, transport);
  }
  const active = transport;
  return {
    async send(mail) {
      const info = await active.sendMail({
        from: config.MAIL_FROM,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      return { messageId: String(info.messageId), accepted: (info.accepted ?? []).map(String) };
    },
  };
}
