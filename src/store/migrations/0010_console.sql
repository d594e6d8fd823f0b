-- The web console: a password per account that signs in there, sessions, and sign-in attempts.
-- Passwords are scrypt hashes with their own salt and parameters ("scrypt$N$r$p$salt$hash");
-- sessions are kept only as the SHA-256 of their id, so a copy of the table opens no session.
CREATE TABLE IF NOT EXISTS console_logins (
  account_id    text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS console_sessions (
  id_hash    text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS console_sessions_account ON console_sessions (account_id);
CREATE INDEX IF NOT EXISTS console_sessions_expiry ON console_sessions (expires_at);

-- One row per counted attempt and per subject it counts against (an email, an IP address):
-- counting rows in the window is the rate limit, shared by every process on the database.
CREATE TABLE IF NOT EXISTS console_attempts (
  attempt_id text NOT NULL,
  kind       text NOT NULL,
  subject    text NOT NULL,
  at         timestamptz NOT NULL,
  PRIMARY KEY (attempt_id, kind)
);

CREATE INDEX IF NOT EXISTS console_attempts_subject ON console_attempts (kind, subject, at);
CREATE INDEX IF NOT EXISTS console_attempts_at ON console_attempts (at);
