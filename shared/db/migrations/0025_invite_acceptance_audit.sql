-- Accepting an invite is audited (member.join); a new account's only credential then is the invite link itself.
ALTER TYPE "public"."audit_credential_kind" ADD VALUE 'invite';