-- Reservations move to the Redis wallet mirror (docs/wallet.md): money still held in PostgreSQL goes back to the
-- balance before the frozen column and the reservations table are dropped by the next migration. A request still in
-- flight across this deploy settles against the mirror with its hold gone: charged nothing (never twice).
UPDATE organization_wallets SET balance = balance + frozen_amount, frozen_amount = 0 WHERE frozen_amount <> 0;--> statement-breakpoint
UPDATE wallet_reservations SET status = 'released', closed_at = now() WHERE status = 'held';
