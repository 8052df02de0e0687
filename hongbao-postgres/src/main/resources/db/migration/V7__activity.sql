-- Activities and 口令 packets matched by pinyin.

-- An activity is a set of packets that counts every user's grabs across all of them: nobody is
-- paid more than max_grabs_per_user shares of the activity's packets. Its id lives in the high bits
-- of its packets' ids (packet id = 2^62 | activity id << 40 | packet number; bit 62 marks the
-- layout), which is how the fast store puts every packet of an activity in the activity's shard;
-- hence the upper bound of 2^22 - 1.
CREATE SEQUENCE activity_id_seq AS bigint START WITH 1 INCREMENT BY 1 MAXVALUE 4194303;

CREATE TABLE activity (
    id                 bigint      PRIMARY KEY CHECK (id BETWEEN 1 AND 4194303),
    name               text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
    -- bounded so that a user's list of grabbed packets in the fast store stays small
    max_grabs_per_user integer     NOT NULL CHECK (max_grabs_per_user BETWEEN 1 AND 1000),
    created_by         text        NOT NULL,
    created_at         timestamptz NOT NULL
);

-- The activity of a packet, spelled out from its id so that SQL readers need not shift bits, and
-- tied to a real activity: the ledger refuses a packet of an activity that does not exist.
-- (4611686018427387904 = 2^62, 4194303 = 2^22 - 1.)
ALTER TABLE packet ADD COLUMN activity_id bigint
    GENERATED ALWAYS AS (CASE WHEN id >= 4611686018427387904 THEN (id >> 40) & 4194303 END) STORED
    REFERENCES activity (id);

-- How a grab's 口令 must resemble the sender's: EXACT, PINYIN or a percentage 50-100 (fuzzy
-- pinyin). Null for a packet without a 口令, and for one sent before this column existed, which was
-- promised an exact match and keeps it.
ALTER TABLE packet ADD COLUMN password_match text
    CHECK (password_match ~ '^(EXACT|PINYIN|[5-9][0-9]|100)$');

-- The ledger's own count of the grabs it has paid each user in each activity. Kept by a trigger on
-- the GRAB transfers of activity packets, in the same statement as the payout, and checked against
-- the activity's limit there: a payout beyond it fails the statement with a check violation, which
-- the payout path turns into a refusal (dead-lettered and reported). So the limit holds in the
-- books even if the fast store forgets a count (a Redis restart that lost writes), exactly as
-- account.shares_left bounds a packet's grabs.
CREATE TABLE activity_grab (
    activity_id bigint  NOT NULL REFERENCES activity (id),
    user_id     text    NOT NULL,
    grabs       integer NOT NULL CHECK (grabs >= 1),
    PRIMARY KEY (activity_id, user_id)
);

CREATE FUNCTION activity_grab_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    grabbed_in bigint := (NEW.packet_id >> 40) & 4194303;
    allowed  integer;
    counted  integer;
BEGIN
    INSERT INTO activity_grab AS g (activity_id, user_id, grabs)
    VALUES (grabbed_in, NEW.user_id, 1)
    ON CONFLICT (activity_id, user_id) DO UPDATE SET grabs = g.grabs + 1
    RETURNING g.grabs INTO counted;
    SELECT a.max_grabs_per_user INTO allowed FROM activity a WHERE a.id = grabbed_in;
    IF counted > allowed THEN
        RAISE EXCEPTION 'activity %: user % would be paid % grabs, over its limit of %',
            grabbed_in, NEW.user_id, counted, allowed
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END
$$;

-- Only the GRAB transfers of packets in an activity (ids from 2^62).
CREATE TRIGGER transfer_activity_grab_count AFTER INSERT ON transfer
    FOR EACH ROW WHEN (NEW.kind = 'GRAB' AND NEW.packet_id >= 4611686018427387904)
    EXECUTE FUNCTION activity_grab_count();
