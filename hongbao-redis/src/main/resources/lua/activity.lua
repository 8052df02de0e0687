--[[
activity.lua: put an activity's counts back from the ledger, keeping what is there.

KEYS[1] activity hash  hb:{sNNN}:a:<activity>   user -> "p1,p2,..." (packet ids grabbed),
                       # -> the run id of the server (the master) holding them when they were
                            restored
ARGV[1] now (ms)   ARGV[2] keep until (ms): when the activity's latest packet's keys expire
ARGV[3] that run id on the restore's last call, "" on the calls before it
then 2 values per user: user, the packet ids the ledger paid the user, comma-separated

Each user's entry becomes the union of the packets listed there and those given, so restoring the
same grabs twice counts them once, and grabs the store made that the ledger has not paid yet are
kept. The hash lives at least until ARGV[2].

The field # marks the counts as whole: written only by the last call of a restore (a restore too
large for one call that stops half-way leaves it unwritten, and the next arming restores again),
and holding the server's run id, so that counts a restart rolled back (an older AOF, a lagging
replica promoted) are not taken for whole: the run id changed.

Reply: the number of users whose entry changed.

Atomic because a script runs alone on the shard: a grab of the activity's packets sees the counts
before or after the whole restore, never half of it.
--]]
local changed = 0
for i = 4, #ARGV, 2 do
  local user = ARGV[i]
  local mine = redis.call('HGET', KEYS[1], user)
  local merged = mine or ''
  for packet in string.gmatch(ARGV[i + 1], '[^,]+') do
    if not string.find(',' .. merged .. ',', ',' .. packet .. ',', 1, true) then
      merged = merged == '' and packet or (merged .. ',' .. packet)
    end
  end
  if merged ~= (mine or '') then
    redis.call('HSET', KEYS[1], user, merged)
    changed = changed + 1
  end
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], '#', ARGV[3])
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 or tonumber(ARGV[1]) + left < tonumber(ARGV[2]) then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
end
return changed
