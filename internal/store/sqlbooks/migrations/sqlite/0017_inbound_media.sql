-- The files a message carried (voice notes, photos): their links and
-- declared types as JSON, so that a message a crash left unanswered is
-- answered with them. The files themselves stay with Twilio.
ALTER TABLE inbound_messages ADD COLUMN media TEXT NOT NULL DEFAULT '';
