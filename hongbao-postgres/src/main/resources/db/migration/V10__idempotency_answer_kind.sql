-- An idempotency row keeps an answer the books do not read (core's StoredAnswer): the adapter that
-- answered chose its kind and encoded its payload, and only that adapter maps them back (the HTTP
-- layer turns a kind into a status code). Rows written before stored the HTTP status itself; each
-- becomes the kind the HTTP layer maps back to that same status (hongbao.http.AnswerKind), so a
-- retry of a request answered before this migration is answered byte for byte as it was.
ALTER TABLE idempotency ADD COLUMN kind text;

UPDATE idempotency
SET kind = CASE status
               WHEN 200 THEN 'DONE'
               WHEN 201 THEN 'CREATED'
               WHEN 202 THEN 'ACCEPTED'
           END;

-- Only 200, 201 and 202 answers were ever kept; a row with another status would be left without
-- a kind, and NOT NULL then fails the migration loudly instead of replaying a wrong answer.
ALTER TABLE idempotency ALTER COLUMN kind SET NOT NULL;
ALTER TABLE idempotency DROP COLUMN status;
ALTER TABLE idempotency RENAME COLUMN body TO payload;
