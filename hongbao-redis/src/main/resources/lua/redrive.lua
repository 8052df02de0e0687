--[[
redrive.lua: send one dead-lettered payout task back to its payout stream (an operator's retry).

KEYS[1] dead-letter stream  hb:{sNNN}:payouts:dead
KEYS[2] payout stream       hb:{sNNN}:payouts
ARGV[1] the dead letter's entry id

Replies (integer):
  1  moved: the task's own fields (p, u, a, t: without the dead letter's n, o and r) were appended
     to the payout stream as a new entry, and the dead letter deleted
  0  nothing done: no such dead letter (retried already)

Atomic because a script runs alone on the shard: two operators retrying one task move it once.
The new entry is delivered like any grab's task; the ledger's transfer key still pays it at most
once.
--]]
local entries = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1])
if #entries == 0 then
  return 0
end
local fields = entries[1][2]
local task = {}
for i = 1, #fields, 2 do
  local name = fields[i]
  if name ~= 'n' and name ~= 'o' and name ~= 'r' then
    table.insert(task, name)
    table.insert(task, fields[i + 1])
  end
end
redis.call('XADD', KEYS[2], '*', unpack(task))
redis.call('XDEL', KEYS[1], ARGV[1])
return 1
