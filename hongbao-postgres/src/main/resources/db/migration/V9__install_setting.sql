-- Values an install chooses once and keeps: every instance of the install reads the same row, so
-- they agree without being told (today the alphabet packet ids are written in, which must never
-- change while any id handed out is still in use: a changed alphabet would turn every shared link
-- into a 404).
CREATE TABLE install_setting (
    name       text        PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_.]{0,63}$'),
    -- never updated: the first instance to store a value wins, the others read it
    value      text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
