--[[
deadletter.lua: give up on one payout task that was delivered too often.

KEYS[1] payout stream       hb:{sNNN}:payouts
KEYS[2] dead-letter stream  hb:{sNNN}:payouts:dead
ARGV[1] consumer group   ARGV[2] entry id   ARGV[3] minIdle (ms)   ARGV[4] reason

Replies (integer):
  1  moved: the entry's fields plus n (deliveries), o (original id) and r (reason) were appended
     to the dead-letter stream, and the entry acknowledged and deleted from the payout stream
  0  nothing done: the entry is no longer pending, or was delivered again less than minIdle ago

Atomic because a script runs alone on the shard: the still-pending-and-idle check, the copy and
the ack happen together, so two reapers racing on one entry dead-letter it once, and a task a
consumer has just taken over is left to that consumer.
--]]
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], 'IDLE', ARGV[3], ARGV[2], ARGV[2], 1)
if #pending == 0 then
  return 0
end
local entries = redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[2])
if #entries == 1 then
  local fields = entries[1][2]
  table.insert(fields, 'n')
  table.insert(fields, pending[1][4])
  table.insert(fields, 'o')
  table.insert(fields, ARGV[2])
  table.insert(fields, 'r')
  table.insert(fields, ARGV[4])
  redis.call('XADD', KEYS[2], '*', unpack(fields))
end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
return 1
